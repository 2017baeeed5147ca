import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ADMIN, describe, expectVisible, MODES, newPage, signIn, test } from "./browser";
import { adminApi, uniqueToken } from "./support/data";

// Screens to look at after a run (gitignored).
const SHOTS = path.resolve(import.meta.dirname, "../.tmp/e2e-admin-auth");
fs.mkdirSync(SHOTS, { recursive: true });

for (const mode of MODES) {
  describe(`admin sign-in ${mode.name}`, () => {
    test("an admin signs in, sees the dashboard, and signs out", async () => {
      const { page, problems } = await newPage(mode);
      await signIn(page, ADMIN);
      await page.waitForURL((url) => url.pathname === "/admin");
      await expectVisible(page.getByRole("heading", { name: "Admin Dashboard" }));
      await expectVisible(page.getByText(`Signed in as ${ADMIN.username}`));
      await expectVisible(page.getByText("Login successful").first());
      await expectVisible(page.getByText(`Welcome back, ${ADMIN.username}!`).first());
      const tabs = page.getByRole("navigation", { name: "Admin sections" });
      for (const tab of ["Subscribers", "Email", "Products", "Orders", "Drop", "App Settings", "Account"]) {
        await expectVisible(tabs.getByRole("link", { name: tab, exact: true }));
      }
      await tabs.getByRole("link", { name: "Orders", exact: true }).click();
      await page.getByRole("heading", { name: "Order Management" }).waitFor();

      // On a phone every section is in sight at once: the tabs wrap, nothing hides past the edge.
      await page.setViewportSize({ width: 390, height: 844 });
      const outside = await tabs
        .getByRole("link")
        .evaluateAll((links) =>
          links.filter((link) => link.getBoundingClientRect().right > window.innerWidth).map((link) => link.textContent),
        );
      assert.deepEqual(outside, []);
      assert.equal(await tabs.getByRole("link").count(), 10);
      await page.screenshot({ path: `${SHOTS}/admin-tabs-390-${mode.javaScriptEnabled ? "js" : "nojs"}.png` });
      await page.setViewportSize({ width: 1280, height: 800 });

      await page.getByRole("button", { name: "Logout" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await expectVisible(page.getByText("You have been successfully logged out").first());
      await page.goto("/admin/orders");
      await page.waitForURL("**/auth?redirectTo=%2Fadmin%2Forders");
      assert.deepEqual(problems, []);
    });

    test("a wrong password shows the spec's messages and stays on the login screen", async () => {
      const { page } = await newPage(mode);
      await page.goto("/admin/login");
      await page.getByLabel("Username").fill(ADMIN.username);
      await page.getByLabel("Password").fill("not-the-password");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("alert").filter({ hasText: "Invalid username or password" }).first().waitFor();
      await expectVisible(page.getByText("Login failed").first());
      assert.equal(new URL(page.url()).pathname, "/admin/login");
    });

    test("empty fields get the spec's validation messages", async () => {
      const { page } = await newPage(mode);
      await page.goto("/auth");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText("Username is required").waitFor();
      await expectVisible(page.getByText("Password is required"));
    });

    test("a signed-out visitor is sent to /auth and returns to the page after signing in", async () => {
      const { page } = await newPage(mode);
      await page.goto("/admin/products");
      await page.waitForURL("**/auth?redirectTo=%2Fadmin%2Fproducts");
      await expectVisible(page.getByRole("heading", { name: "Admin Login" }));
      await page.getByLabel("Username").fill(ADMIN.username);
      await page.getByLabel("Password").fill(ADMIN.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL("**/admin/products");
      await page.getByRole("heading", { name: "Product Management" }).waitFor();
      // Already signed in: the login screen sends the admin on to the dashboard.
      await page.goto("/admin/login");
      await page.waitForURL((url) => url.pathname === "/admin");
    });

    test("a signed-in non-admin is sent home from /admin", async () => {
      const { page, context } = await newPage(mode);
      const username = `shopper${uniqueToken()}${mode.javaScriptEnabled ? "js" : "nojs"}`;
      const registered = await context.request.post("/api/register", {
        data: { username, password: "shopper-password", email: `${username}@example.com`, isAdmin: true },
      });
      assert.equal(registered.status(), 201);
      assert.equal(((await registered.json()) as { isAdmin: boolean }).isAdmin, false);
      await page.goto("/admin");
      await page.waitForURL((url) => url.pathname === "/");
      const api = await context.request.get("/api/trpc/admin.overview");
      assert.equal(api.status(), 403);
    });
  });
}

describe("admin pages and caches", () => {
  test("every admin page and its data go out private, no-store: no proxy hands them on, no browser keeps them", async () => {
    const admin = await adminApi();
    for (const path of ["/admin", "/admin/orders", "/admin/products", "/admin/subscribers", "/admin/settings", "/admin/orders.data"]) {
      const response = await admin.get(path, { maxRedirects: 0 });
      assert.deepEqual([path, response.status(), response.headers()["cache-control"]], [path, 200, "private, no-store"]);
    }
  });
});

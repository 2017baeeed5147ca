// Where sign-in sends the admin: a redirectTo on this site is honoured, anything that could leave it
// is not. Since the login action goes back to the login screen (?signedIn=1) before going on, the
// browser makes one extra hop; the URL it ends on is what counts.
import assert from "node:assert/strict";
import { ADMIN, BASE_URL, describe, expectVisible, type Mode, MODES, newPage, signIn, type TestPage, test } from "./browser";

// Chromium drops the tab in "/\t/evil.example" and would go to //evil.example; a newline answered
// 500 and lost the sign-in. Each must end on the store's own dashboard, signed in.
const HOSTILE: readonly (readonly [screen: string, redirectTo: string])[] = [
  ["/auth", "/\t/evil.example"],
  ["/auth", "/\n/evil.example"],
  ["/auth", "/\\evil.example"],
  ["/admin/login", "/\t/evil.example"],
  ["/admin/login", "//evil.example"],
];

/** A page whose visits to evil.example are caught (and answered) rather than left to DNS. */
async function guardedPage(mode: Mode): Promise<TestPage & { escapes: string[] }> {
  const opened = await newPage(mode);
  const escapes: string[] = [];
  await opened.context.route(
    (url) => url.hostname.endsWith("evil.example"),
    (route) => {
      escapes.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" });
    },
  );
  return { ...opened, escapes };
}

const store = new URL(BASE_URL).origin;

for (const mode of MODES) {
  describe(`returning after sign-in ${mode.name}`, () => {
    for (const [screen, hostile] of HOSTILE) {
      test(`${screen}?redirectTo=${JSON.stringify(hostile)} ends on the store's own dashboard`, async () => {
        const { page, escapes, problems } = await guardedPage(mode);
        await page.goto(`${screen}?redirectTo=${encodeURIComponent(hostile)}`);
        assert.equal(await page.locator('input[name="redirectTo"]').inputValue(), "/admin");
        await page.getByLabel("Username").fill(ADMIN.username);
        await page.getByLabel("Password").fill(ADMIN.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL((url) => url.pathname === "/admin" || url.hostname.endsWith("evil.example"));
        assert.deepEqual(escapes, []);
        assert.equal(new URL(page.url()).origin, store);
        await expectVisible(page.getByRole("heading", { name: "Admin Dashboard" }));
        await expectVisible(page.getByText(`Welcome back, ${ADMIN.username}!`).first());
        assert.deepEqual(problems, []);
      });
    }

    test("a redirectTo on this site is honoured", async () => {
      const { page, escapes, problems } = await guardedPage(mode);
      await signIn(page, ADMIN, `/auth?redirectTo=${encodeURIComponent("/admin/orders")}`);
      await page.waitForURL((url) => url.pathname === "/admin/orders");
      assert.equal(new URL(page.url()).origin, store);
      await page.getByRole("heading", { name: "Order Management" }).waitFor();
      assert.deepEqual(escapes, []);
      assert.deepEqual(problems, []);
    });

    if (mode.javaScriptEnabled !== false) {
      // The login loader's redirect, rejected while Remix waited for a route's styles, had no catch
      // yet: the browser reported an uncaught Response (decision 0067). Slow styles make it certain.
      test("signing in while the styles load slowly raises no uncaught error", async () => {
        const { page, context, problems } = await guardedPage(mode);
        await page.goto(`/admin/login?redirectTo=${encodeURIComponent("/admin/orders")}`);
        await context.route("**/*.css", async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 800));
          await route.continue();
        });
        await page.getByLabel("Username").fill(ADMIN.username);
        await page.getByLabel("Password").fill(ADMIN.password);
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.waitForURL((url) => url.pathname === "/admin/orders");
        await page.getByRole("heading", { name: "Order Management" }).waitFor();
        assert.deepEqual(problems, []);
      });
    }

    test("/admin/login honours one too", async () => {
      const { page, escapes } = await guardedPage(mode);
      await signIn(page, ADMIN, `/admin/login?redirectTo=${encodeURIComponent("/admin/orders")}`);
      await page.waitForURL((url) => url.pathname === "/admin/orders");
      await page.getByRole("heading", { name: "Order Management" }).waitFor();
      assert.deepEqual(escapes, []);
    });
  });
}

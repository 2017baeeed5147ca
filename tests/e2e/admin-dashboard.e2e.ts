import assert from "node:assert/strict";
import { ADMIN, describe, expectVisible, MODES, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, placeOrder, uniqueName } from "./support/data";

// Issue 14: the dashboard at /admin, at a phone's and a desktop's width, with and without
// JavaScript. The e2e store runs in test mode, so every order placed here is a test order: it shows
// only once "Include test orders" is ticked.
for (const mode of MODES) {
  for (const width of [390, 1280]) {
    describe(`admin dashboard ${mode.name} at ${width} px`, () => {
      test("shows the range's figures, leaves test orders out until asked, and reads as a table", async () => {
        const name = uniqueName("E2E Dashboard Tee");
        const product = await createProduct(await adminApi(), { name, price: 41, inventory: 5 });
        await placeOrder(product.id, { quantity: 2 });

        const { page, problems } = await newPage({ ...mode, viewport: { width, height: 900 } });
        await signIn(page, ADMIN);
        await page.waitForURL((url) => url.pathname === "/admin");
        await expectVisible(page.getByRole("heading", { name: "Dashboard", exact: true }));
        // The region itself: a bare "section that has the heading" also matches the page's outer section, which holds the pre-drop checklist and its product names.
        const topProducts = page.getByRole("region", { name: "Top products" });
        await expectVisible(topProducts);
        assert.equal(await topProducts.getByText(name).count(), 0, "a test order is left out by default");

        await page.getByText("Today", { exact: true }).click();
        await page.getByLabel("Include test orders").check();
        await page.getByRole("button", { name: "Show" }).click();
        await page.waitForURL((url) => url.searchParams.get("range") === "today" && url.searchParams.get("includeTest") === "1");
        const row = topProducts.getByRole("row", { name: new RegExp(name) });
        await expectVisible(row);
        assert.match((await row.innerText()).replace(/\s+/g, " "), /\b2 \$82\.00$/);
        await expectVisible(page.getByTestId("range-shown").getByText(/test orders included/));

        // The orders chart per hour, and its figures as a table.
        const orders = page.locator("figure", { has: page.getByRole("heading", { name: "Orders", exact: true }) });
        await expectVisible(orders.getByText("Paid orders placed, per hour"));
        await orders.getByText("Show the figures").click();
        await expectVisible(orders.getByRole("table"));
        assert.equal((await orders.getByRole("table").locator("tbody tr").count()) >= 23, true);

        // Nothing wider than the screen.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page is ${overflow} px wider than the window`);
        assert.deepEqual(problems, []);
      });

      test("refuses a custom range that ends before it starts, with the reason", async () => {
        const { page, problems } = await newPage({ ...mode, viewport: { width, height: 900 } });
        await signIn(page, ADMIN);
        await page.waitForURL((url) => url.pathname === "/admin");
        await page.goto("/admin?range=custom&from=2026-06-12&to=2026-06-01");
        await expectVisible(
          page.getByTestId("range-error").getByText('"from" must be on or before "to". Showing the last 7 days instead.'),
        );
        assert.deepEqual(problems, []);
      });
    });
  }
}

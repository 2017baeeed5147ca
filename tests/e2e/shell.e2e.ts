import assert from "node:assert/strict";
import { describe, expectVisible, MODES, newPage, test } from "./browser";

for (const mode of MODES) {
  describe(`the layout shell ${mode.name}`, () => {
    test("the home page renders with the navigation bar and footer", async () => {
      const { page, problems } = await newPage(mode);
      const response = await page.goto("/");
      assert.equal(response?.status(), 200);
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const name of ["Home", "Store", "About", "Support"]) {
        await expectVisible(nav.getByRole("link", { name, exact: true }));
      }
      assert.match(await page.locator("footer").innerText(), /© \d{4} Legacy/);
      await expectVisible(page.getByRole("link", { name: /shopping cart/i }));
      assert.deepEqual(problems, []);
    });

    test("an unknown path answers 404 with the 404 page", async () => {
      const { page, problems } = await newPage(mode);
      const response = await page.goto("/no/such/page");
      assert.equal(response?.status(), 404);
      // Tab titles read "{Page} | {brand}" (issue 28).
      assert.equal(await page.title(), "404 Page Not Found | Legacy");
      await expectVisible(page.getByRole("heading", { name: "404 Page Not Found" }));
      assert.deepEqual(
        problems.filter((p) => !p.includes("404")),
        [],
      );
    });

    test("the mobile menu opens and lists the links", async () => {
      const { page } = await newPage({ ...mode, viewport: { width: 390, height: 844 } });
      await page.goto("/");
      const desktopStore = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Store", exact: true });
      assert.equal(await desktopStore.isVisible(), false, "desktop links hidden on a phone");
      await page.getByLabel("Toggle menu").click();
      const menu = page.getByRole("navigation", { name: "Mobile" });
      await menu.getByRole("link", { name: "Support", exact: true }).waitFor({ state: "visible" });
      await menu.getByRole("link", { name: "Support", exact: true }).click();
      await page.waitForURL("**/support");
    });
  });
}

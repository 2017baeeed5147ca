import assert from "node:assert/strict";
import { describe, MODES, newPage, test } from "./browser";
import { adminApi, createProduct, uniqueName } from "./support/data";

// Issue 23 (decision 0045): a shopper chooses a size, with and without JavaScript, on a phone and
// a desktop; a sold-out size is struck through and cannot be chosen; the bag says "Size M".
const VIEWPORTS = [
  { name: "phone", viewport: { width: 390, height: 844 } },
  { name: "desktop", viewport: { width: 1280, height: 900 } },
];

for (const mode of MODES) {
  for (const { name: screen, viewport } of VIEWPORTS) {
    describe(`choosing a size ${mode.name} on a ${screen}`, () => {
      test("Add To Bag waits for a size; the chosen size lands in the bag", async () => {
        const api = await adminApi();
        const product = await createProduct(api, {
          name: uniqueName("E2E Sized Tee"),
          description: "A tee in sizes, made by the end-to-end test for itself.",
          price: 40,
          availableColors: ["Black", "White"],
          sizes: [
            { label: "S", inventory: 0 },
            { label: "M", inventory: 3 },
          ],
        });
        const { page, problems } = await newPage({ javaScriptEnabled: mode.javaScriptEnabled, viewport });
        await page.goto(`/store/${product.id}`);
        const small = page.locator('input[name="size"][value="S"]');
        assert.equal(await small.isDisabled(), true);
        if (mode.javaScriptEnabled) {
          await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
          assert.equal(await page.getByTestId("add-to-bag").isDisabled(), true);
        } else {
          await page.getByTestId("add-to-bag").click();
          await page.getByText("Please choose a size.").first().waitFor();
          // Said beside the picker, on the page the form answered with (a 400), not as a toast only.
          await page.getByTestId("size-error").filter({ hasText: "Please choose a size." }).waitFor();
          assert.equal(
            await page.locator("fieldset", { has: page.getByTestId("size-choices") }).getAttribute("aria-describedby"),
            "size-error",
          );
          await page.screenshot({ path: `tests/.tmp/size-error-${screen}.png`, fullPage: true });
        }
        await page.locator("label", { has: page.locator('input[name="size"][value="M"]') }).click();
        await page.locator("label", { has: page.locator('input[name="color"][value="White"]') }).click();
        await page.getByTestId("add-to-bag").click();
        if (mode.javaScriptEnabled) await page.getByTestId("add-to-bag-result").waitFor();
        else await page.waitForURL(`**/store/${product.id}`);
        await page.goto("/cart");
        await page.getByTestId("line-choice").filter({ hasText: "Size M · White" }).waitFor();
        // Without JavaScript the refused add is the page itself, answered with its 400: the browser logs that status.
        assert.deepEqual(
          problems.filter((p) => mode.javaScriptEnabled || !p.includes("status of 400")),
          [],
        );
      });
    });
  }
}

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { expectVisible, MODES, newPage } from "./browser.mjs";

// The seed (first start of the e2e server) has one product in every state.
const TEE = /Heritage Heavyweight Tee/i;

/** With JavaScript, wait until the page is hydrated so clicks go through fetchers, not plain posts. */
async function hydrated(page, mode) {
  if (mode.javaScriptEnabled) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
}

async function badge(page) {
  const count = page.getByTestId("cart-count");
  return (await count.count()) === 0 ? "0" : (await count.innerText()).trim();
}

async function expectBadge(page, expected) {
  const deadline = Date.now() + 5_000;
  while ((await badge(page)) !== expected) {
    if (Date.now() > deadline) assert.fail(`the bag badge shows ${await badge(page)}, expected ${expected}`);
    await page.waitForTimeout(100);
  }
}

for (const mode of MODES) {
  describe(`the store ${mode.name}`, () => {
    test("the grid shows upper-case names, the badges and the discount, and no unreleased drop", async () => {
      const { page, context, problems } = await newPage(mode);
      const response = await page.goto("/store");
      assert.equal(response.status(), 200);
      const cards = page.getByTestId("product-card");
      await expectVisible(cards);
      const tee = cards.filter({ hasText: TEE });
      assert.equal((await tee.locator("h2").innerText()).trim(), "HERITAGE HEAVYWEIGHT TEE");
      await expectVisible(page.getByText("SOLD OUT", { exact: true }));
      await expectVisible(page.getByText("COMING SOON", { exact: true }));
      await expectVisible(page.getByText(/^-\d+% OFF$/));
      const names = (await page.getByTestId("product-grid").innerText()).toLowerCase();
      assert.ok(!names.includes("midnight drop bomber"), "a countdown-restricted product is not listed before its release");
      assert.ok(!names.includes("archive sample tee"), "a hidden product is not listed");
      assert.deepEqual(problems, []);
      await context.close();
    });

    test("a product opens on its own URL, shows its details, and Back to Products returns", async () => {
      const { page, context, problems } = await newPage({ ...mode, viewport: { width: 390, height: 844 } });
      await page.goto("/store");
      await hydrated(page, mode);
      await page.getByTestId("product-card").filter({ hasText: TEE }).click();
      await page.waitForURL(/\/store\/\d+$/);
      await expectVisible(page.getByRole("heading", { level: 1, name: TEE }));
      await expectVisible(page.getByText("One Size"));
      await expectVisible(page.getByTestId("color-swatches").getByText("Black"));
      await expectVisible(page.getByRole("button", { name: "Add To Bag" }));
      // The extra images can be picked (in place with JavaScript, through ?image= without).
      const mainSrc = () => page.getByTestId("main-image").locator("img").getAttribute("src");
      const before = await mainSrc();
      await page.getByRole("link", { name: "Show image 2 of 3" }).click();
      await expectVisible(page.locator('[aria-current="true"][aria-label="Show image 2 of 3"]'));
      assert.notEqual(await mainSrc(), before);
      await page.getByRole("link", { name: /Back to Products/i }).click();
      await page.waitForURL(/\/store$/);
      await expectVisible(page.getByTestId("product-grid"));
      assert.deepEqual(problems, []);
      await context.close();
    });

    test("coming-soon and sold-out products cannot be added", async () => {
      const { page, context } = await newPage(mode);
      await page.goto("/store");
      await page.getByTestId("product-card").filter({ hasText: /Denim Jacket/i }).click();
      await expectVisible(page.getByTestId("coming-soon-banner").getByText(/^Expected /));
      assert.equal(await page.getByRole("button", { name: "Add To Bag" }).count(), 0);
      await page.goto("/store");
      await page.getByTestId("product-card").filter({ hasText: /Presence Crewneck/i }).click();
      await expectVisible(page.getByTestId("sold-out-banner"));
      assert.equal(await page.getByRole("button", { name: "Add To Bag" }).count(), 0);
      await context.close();
    });

    test("add to bag, see the count, then plus, minus and remove in the cart", async () => {
      const { page, context, problems } = await newPage(mode);
      await page.goto("/store");
      await page.getByTestId("product-card").filter({ hasText: TEE }).click();
      await page.waitForURL(/\/store\/\d+$/);
      await hydrated(page, mode);
      await page.getByRole("button", { name: "Add To Bag" }).click();
      if (mode.javaScriptEnabled) await expectVisible(page.getByTestId("add-to-bag-result").getByText(/is in your bag/));
      else await expectVisible(page.getByTestId("flash-toast").getByText("Added to Bag"));
      await expectBadge(page, "1");

      if (mode.javaScriptEnabled) {
        await page.getByTestId("cart-button").click();
        const dropdown = page.getByTestId("cart-dropdown");
        await expectVisible(dropdown.getByRole("heading", { name: "Shopping Cart" }));
        await expectVisible(dropdown.getByTestId("cart-line").filter({ hasText: TEE }));
      } else {
        await page.getByTestId("cart-button").click();
        await page.waitForURL(/\/cart$/);
        await expectVisible(page.getByRole("heading", { name: "Shopping Cart" }));
      }
      const scope = mode.javaScriptEnabled ? page.getByTestId("cart-dropdown") : page.locator("main");
      const quantity = scope.getByTestId("line-quantity");
      const waitQuantity = async (n) => {
        await scope.getByTestId("line-quantity").filter({ hasText: new RegExp(`^\\s*(Quantity\\s*)?${n}\\s*$`) }).waitFor();
      };

      await scope.getByRole("button", { name: /Increase quantity/ }).click();
      await waitQuantity(2);
      await expectBadge(page, "2");
      assert.match(await scope.getByTestId("cart-total").innerText(), /\$76\.00/);

      await scope.getByRole("button", { name: /Decrease quantity/ }).click();
      await waitQuantity(1);
      await expectBadge(page, "1");
      assert.match(await quantity.innerText(), /1/);

      await scope.getByRole("button", { name: /^Remove / }).click();
      await expectVisible(scope.getByText("Your cart is empty"));
      await expectBadge(page, "0");
      assert.deepEqual(problems, []);
      await context.close();
    });
  });
}

describe("the cart dropdown with JavaScript", () => {
  test("Checkout closes the dropdown and goes to /checkout", async () => {
    const { page, context } = await newPage();
    await page.goto("/store");
    await page.getByTestId("product-card").filter({ hasText: /Six-Panel Cap/i }).click();
    await hydrated(page, { javaScriptEnabled: true });
    await page.getByRole("button", { name: "Add To Bag" }).click();
    await expectBadge(page, "1");
    await page.getByTestId("cart-button").click();
    await page.getByTestId("cart-dropdown").getByRole("button", { name: "Checkout" }).click();
    await page.waitForURL(/\/checkout$/);
    await page.getByTestId("cart-dropdown").waitFor({ state: "detached", timeout: 5_000 });
    await context.close();
  });
});

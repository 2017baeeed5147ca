import assert from "node:assert/strict";
import { formatInTimeZone } from "date-fns-tz";
import type { Page } from "playwright-core";
import { describe, expectVisible, type Mode, MODES, newPage, test } from "./browser";
import { addImages, adminApi, createProduct, uniqueName } from "./support/data";

const DAY = 24 * 60 * 60 * 1000;
/** A New York calendar day `days` from now, as the product form stores a release date. */
const dayFromNow = (days: number) => formatInTimeZone(new Date(Date.now() + days * DAY), "America/New_York", "yyyy-MM-dd");

/** A product of this test's own, visible and in stock: a $38 tee in three colours unless told otherwise. */
async function ownTee(fields: { name?: string; price?: number; images?: string[] } = {}) {
  const api = await adminApi();
  const product = await createProduct(api, {
    name: fields.name ?? uniqueName("E2E Heavyweight Tee"),
    description: "A cotton tee made by the end-to-end test for itself.",
    price: fields.price ?? 38,
    inventory: 10,
    availableColors: ["Black", "White", "Gray"],
  });
  if (fields.images) await addImages(api, product.id, fields.images);
  return product;
}

/** With JavaScript, wait until the page is hydrated so clicks go through fetchers, not plain posts. */
async function hydrated(page: Page, mode: Pick<Mode, "javaScriptEnabled">) {
  if (mode.javaScriptEnabled) await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
}

async function badge(page: Page) {
  const count = page.getByTestId("cart-count");
  return (await count.count()) === 0 ? "0" : (await count.innerText()).trim();
}

async function expectBadge(page: Page, expected: string) {
  const deadline = Date.now() + 5_000;
  while ((await badge(page)) !== expected) {
    if (Date.now() > deadline) assert.fail(`the bag badge shows ${await badge(page)}, expected ${expected}`);
    await page.waitForTimeout(100);
  }
}

for (const mode of MODES) {
  describe(`the store ${mode.name}`, () => {
    test("the grid shows upper-case names, the badges and the discount, and no unreleased drop", async () => {
      // One product in every state the grid shows, made for this test.
      const api = await adminApi();
      const tee = await ownTee();
      const soldOut = await createProduct(api, { name: uniqueName("E2E Presence Crewneck"), price: 68, inventory: 0 });
      const comingSoon = await createProduct(api, {
        name: uniqueName("E2E Denim Jacket"),
        price: 148,
        isComingSoon: true,
        releaseDate: dayFromNow(30),
      });
      const onSale = await createProduct(api, { name: uniqueName("E2E Crest Hoodie"), price: 84, discountPercent: 20 });
      const unreleased = await createProduct(api, {
        name: uniqueName("E2E Midnight Bomber"),
        isCountdownRestricted: true,
        countdownReleaseDate: new Date(Date.now() + 3 * DAY).toISOString(),
      });
      const hidden = await createProduct(api, { name: uniqueName("E2E Archive Sample Tee"), isVisible: false });

      const { page, problems } = await newPage(mode);
      const response = await page.goto("/store");
      assert.equal(response?.status(), 200);
      const cards = page.getByTestId("product-card");
      await expectVisible(cards);
      const card = (name: string) => cards.filter({ hasText: name });
      assert.equal((await card(tee.name).locator("h2").innerText()).trim(), tee.name.toUpperCase());
      await expectVisible(page.getByText("SOLD OUT", { exact: true }));
      await expectVisible(card(soldOut.name).getByText("SOLD OUT", { exact: true }));
      await expectVisible(page.getByText("COMING SOON", { exact: true }));
      await expectVisible(card(comingSoon.name).getByText("COMING SOON", { exact: true }));
      await expectVisible(page.getByText(/^-\d+% OFF$/));
      await expectVisible(card(onSale.name).getByText("-20% OFF", { exact: true }));
      const names = (await page.getByTestId("product-grid").innerText()).toLowerCase();
      assert.ok(!names.includes(unreleased.name.toLowerCase()), "a countdown-restricted product is not listed before its release");
      assert.ok(!names.includes(hidden.name.toLowerCase()), "a hidden product is not listed");
      assert.deepEqual(problems, []);
    });

    test("a product opens on its own URL, shows its details, and Back to Products returns", async () => {
      const tee = await ownTee({ images: ["#232526", "#414345", "#8a8a8a"] });
      const { page, problems } = await newPage({ ...mode, viewport: { width: 390, height: 844 } });
      await page.goto("/store");
      await hydrated(page, mode);
      await page.getByTestId("product-card").filter({ hasText: tee.name }).click();
      await page.waitForURL(`**/store/${tee.id}`);
      await expectVisible(page.getByRole("heading", { level: 1, name: tee.name }));
      await expectVisible(page.getByText("One Size"));
      // On sale, the colours are the shopper's choice (issue 23), radios inside the Add To Bag form.
      await expectVisible(page.getByTestId("color-choices").getByText("Black"));
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
    });

    test("coming-soon and sold-out products cannot be added", async () => {
      const api = await adminApi();
      const comingSoon = await createProduct(api, {
        name: uniqueName("E2E Denim Jacket"),
        price: 148,
        isComingSoon: true,
        releaseDate: dayFromNow(30),
      });
      const soldOut = await createProduct(api, { name: uniqueName("E2E Presence Crewneck"), price: 68, inventory: 0 });
      const { page } = await newPage(mode);
      await page.goto("/store");
      await page.getByTestId("product-card").filter({ hasText: comingSoon.name }).click();
      await expectVisible(page.getByTestId("coming-soon-banner").getByText(/^Expected /));
      assert.equal(await page.getByRole("button", { name: "Add To Bag" }).count(), 0);
      await page.goto("/store");
      await page.getByTestId("product-card").filter({ hasText: soldOut.name }).click();
      await expectVisible(page.getByTestId("sold-out-banner"));
      assert.equal(await page.getByRole("button", { name: "Add To Bag" }).count(), 0);
    });

    test("sold-out and coming-soon pages show the size guide, at 390 px", async () => {
      // A shopper waiting for a restock or the release reads the measurements too (decision 0057).
      const api = await adminApi();
      const soldOut = await createProduct(api, {
        name: uniqueName("E2E Guide Crewneck"),
        price: 68,
        sizes: [
          { label: "S", inventory: 0 },
          { label: "M", inventory: 0 },
        ],
        sizeGuide: "Size | Chest (in)\nS | 36-38\nM | 40-42\nMeasured flat, doubled.",
      });
      const comingSoon = await createProduct(api, {
        name: uniqueName("E2E Guide Jacket"),
        price: 148,
        isComingSoon: true,
        releaseDate: dayFromNow(30),
        sizeGuide: "Runs small: take one size up.",
      });
      const { page, problems } = await newPage({ ...mode, viewport: { width: 390, height: 844 } });
      const pages = [
        { product: soldOut, banner: "sold-out-banner", shot: "sold-out" },
        { product: comingSoon, banner: "coming-soon-banner", shot: "coming-soon" },
      ];
      for (const { product, banner, shot } of pages) {
        await page.goto(`/store/${product.id}`);
        await expectVisible(page.getByTestId(banner));
        assert.equal(await page.getByRole("button", { name: "Add To Bag" }).count(), 0);
        await hydrated(page, mode);
        // What the guide shows, wherever it is drawn: the table, or the text.
        const expectGuide = async (scope: ReturnType<Page["locator"]>) => {
          if (product === soldOut) {
            const table = scope.getByTestId("size-guide-table");
            await expectVisible(table);
            assert.deepEqual(await table.locator("tr").allInnerTexts(), ["Size\tChest (in)", "S\t36-38", "M\t40-42"]);
            await expectVisible(scope.getByText("Measured flat, doubled.", { exact: true }));
          } else {
            await expectVisible(scope.getByText("Runs small: take one size up.", { exact: true }));
          }
          await expectVisible(scope.getByText(product.name, { exact: true }));
        };
        if (mode.javaScriptEnabled) {
          const button = page.getByRole("button", { name: "Size guide", exact: true });
          await button.click();
          const dialog = page.getByRole("dialog", { name: "Size guide" });
          await dialog.waitFor();
          await expectGuide(dialog);
          await expectVisible(dialog.getByRole("button", { name: "Close size guide" }));
          await page.screenshot({ path: `tests/.tmp/size-guide-${shot}-phone-js.png` });
          await page.keyboard.press("Escape");
          await dialog.waitFor({ state: "detached" });
          assert.equal(await button.evaluate((el) => el === document.activeElement), true);
        } else {
          const panel = page.locator("#size-guide");
          assert.equal(await panel.isVisible(), false);
          await page.getByRole("link", { name: "Size guide", exact: true }).click();
          await page.waitForURL("**#size-guide");
          await expectVisible(panel.getByRole("heading", { name: "Size guide" }));
          await expectGuide(panel);
          await page.screenshot({ path: `tests/.tmp/size-guide-${shot}-phone-no-js.png` });
          await panel.getByRole("link", { name: "Close", exact: true }).click();
          await panel.waitFor({ state: "hidden" });
        }
      }
      assert.deepEqual(problems, []);
    });

    test("add to bag, see the count, then plus, minus and remove in the cart", async () => {
      const tee = await ownTee();
      const { page, problems } = await newPage(mode);
      await page.goto("/store");
      await page.getByTestId("product-card").filter({ hasText: tee.name }).click();
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
        await expectVisible(dropdown.getByTestId("cart-line").filter({ hasText: tee.name }));
      } else {
        await page.getByTestId("cart-button").click();
        await page.waitForURL(/\/cart$/);
        await expectVisible(page.getByRole("heading", { name: "Shopping Cart" }));
      }
      const scope = mode.javaScriptEnabled ? page.getByTestId("cart-dropdown") : page.locator("main");
      const quantity = scope.getByTestId("line-quantity");
      const waitQuantity = async (n: number) => {
        await scope
          .getByTestId("line-quantity")
          .filter({ hasText: new RegExp(`^\\s*(Quantity\\s*)?${n}\\s*$`) })
          .waitFor();
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
    });
  });
}

describe("the cart dropdown with JavaScript", () => {
  test("Checkout closes the dropdown and goes to /checkout", async () => {
    const cap = await ownTee({ name: uniqueName("E2E Six-Panel Cap"), price: 32 });
    const { page } = await newPage();
    await page.goto("/store");
    await page.getByTestId("product-card").filter({ hasText: cap.name }).click();
    await hydrated(page, { javaScriptEnabled: true });
    await page.getByRole("button", { name: "Add To Bag" }).click();
    await expectBadge(page, "1");
    await page.getByTestId("cart-button").click();
    await page.getByTestId("cart-dropdown").getByRole("button", { name: "Checkout" }).click();
    await page.waitForURL(/\/checkout$/);
    await page.getByTestId("cart-dropdown").waitFor({ state: "detached", timeout: 5_000 });
  });
});

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { before } from "node:test";
import type { Page } from "playwright-core";
import sharp from "sharp";
import type { AdminProduct } from "#server/contracts/admin-products";
import { ADMIN, describe, expectSettled, expectVisible, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, removeProductNamedAtEnd, uniqueName } from "./support/data";

const TMP = path.resolve(import.meta.dirname, "../.tmp/e2e-admin-products");
const files: string[] = [];

before(async () => {
  fs.mkdirSync(TMP, { recursive: true });
  for (const [name, color] of [
    ["front.png", "#1f2a44"],
    ["back.png", "#b3261e"],
  ] as const) {
    const file = path.join(TMP, name);
    await sharp({ create: { width: 900, height: 1100, channels: 3, background: color } })
      .png()
      .toFile(file);
    files.push(file);
  }
});

async function toProducts(page: Page) {
  await signIn(page, ADMIN);
  await page.waitForURL((url) => url.pathname === "/admin");
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Products", exact: true }).click();
  await page.getByRole("heading", { name: "Product Management" }).waitFor();
}

/** Opens the new-product form, fills it in (in black) and queues the two test images. */
async function newProductWithImages(page: Page, fields: { name: string; description: string; price: string; inventory: string }) {
  await page.getByRole("link", { name: "Add/Edit Product" }).click();
  await page.getByLabel("Name", { exact: true }).fill(fields.name);
  await page.getByLabel("Description").fill(fields.description);
  await page.getByLabel("Price ($)").fill(fields.price);
  await page.getByLabel("Inventory").fill(fields.inventory);
  await page.getByRole("button", { name: "Black", exact: true }).click();
  await page.locator("#product-images-input").setInputFiles(files);
}

describe("admin products with JavaScript", () => {
  test("create a product with two images, see it in the store, hide it and see it gone", async () => {
    const { page, context, problems } = await newPage();
    const name = uniqueName("E2E Drop Tee");
    // Deleted below through the UI; if the test fails before that, it goes when the test ends.
    removeProductNamedAtEnd(context.request, name);
    await toProducts(page);
    await expectVisible(page.getByRole("table", { name: "Products" }));

    await newProductWithImages(page, {
      name,
      description: "A tee made by the end-to-end test, with two pictures.",
      price: "42.50",
      inventory: "7",
    });
    assert.equal(await page.getByTestId("queued-image").count(), 2);

    await page.getByRole("button", { name: "Create Product" }).click();
    await expectVisible(page.getByText("Product Created"));
    // With images waiting, the form turns into the new product's editor and uploads them.
    await page.waitForURL(/\?tab=form&id=\d+$/);
    await expectVisible(page.getByRole("heading", { name: `Edit ${name}` }));
    await expectVisible(page.getByText("Batch Upload Complete"), 15_000);
    await page.getByTestId("saved-image").nth(1).waitFor();
    assert.equal(await page.getByTestId("saved-image").count(), 2);
    assert.equal(await page.getByTestId("saved-image").filter({ hasText: "Primary" }).count(), 1);
    assert.equal(await page.getByTestId("queued-image").count(), 0);

    await page.goto("/store");
    const card = page.getByTestId("product-card").filter({ hasText: name.toUpperCase() });
    await expectVisible(card);
    assert.match((await card.locator("img").getAttribute("src")) ?? "", /^\/uploads\/products\/p\d+-[0-9a-f]{32}-800\.webp$/);

    await page.goto("/admin/products");
    const row = page.getByTestId("product-row").filter({ hasText: name });
    await expectVisible(row.getByText("Visible", { exact: true }));
    await row.getByRole("button", { name: `Hide ${name}` }).click();
    await expectVisible(row.getByText("Hidden", { exact: true }));

    await page.goto("/store");
    await expectVisible(page.getByTestId("product-grid"));
    assert.equal(await page.getByTestId("product-card").filter({ hasText: name.toUpperCase() }).count(), 0);

    // Deleted through the UI, with its confirmation dialog.
    await page.goto("/admin/products");
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this product?" });
    await expectSettled(dialog);
    await dialog.getByRole("button", { name: "Delete Product" }).click();
    await expectVisible(page.getByText("Product Deleted"));
    await page.getByTestId("product-row").filter({ hasText: name }).waitFor({ state: "detached" });
    // The queued images' previews are the browser's own object URLs (blob:), not third parties.
    assert.deepEqual(
      problems.filter((problem) => !problem.startsWith("third-party request: blob:")),
      [],
    );
  });
});

describe("admin product images uploaded while their list loads", () => {
  test("both images show once the batch is done, though the list's first answer was sent before them", async () => {
    const { page, context, problems } = await newPage();
    const name = uniqueName("E2E Slow List Tee");
    removeProductNamedAtEnd(context.request, name);
    // The new product's image list is asked for as its editor opens; that first answer is held
    // until both uploads are in, as on a busy server. It says "no images" by then.
    let uploads = 0;
    let uploaded!: () => void;
    const bothUploaded = new Promise<void>((resolve) => (uploaded = resolve));
    page.on("response", (response) => {
      if (/\/api\/admin\/products\/\d+\/images$/.test(response.url()) && response.ok() && ++uploads === 2) uploaded();
    });
    // The uploads wait until the list has been asked for: the editor mounts after a client
    // navigation that a busy machine can make slower than two small uploads.
    let listAsked!: () => void;
    const asked = new Promise<void>((resolve) => (listAsked = resolve));
    await page.route(/\/api\/admin\/products\/\d+\/images$/, async (route) => {
      if (route.request().method() === "POST") await asked;
      await route.continue();
    });
    let held = false;
    await page.route(/\/api\/trpc\/[^?]*admin\.products\.images\.list/, async (route) => {
      if (held) return route.continue();
      held = true;
      listAsked();
      const response = await route.fetch();
      await bothUploaded;
      // The page may have given up on it by then.
      await route.fulfill({ response }).catch(() => undefined);
    });
    await toProducts(page);
    await newProductWithImages(page, {
      name,
      description: "Two pictures uploaded while the list was on its way.",
      price: "30",
      inventory: "3",
    });
    await page.getByRole("button", { name: "Create Product" }).click();
    await expectVisible(page.getByText("Batch Upload Complete"), 15_000);
    assert.ok(held, "the list's first answer was held");
    await page.getByTestId("saved-image").nth(1).waitFor({ timeout: 5_000 });
    assert.equal(await page.getByTestId("saved-image").count(), 2);
    assert.deepEqual(
      problems.filter((problem) => !problem.startsWith("third-party request: blob:")),
      [],
    );
  });
});

describe("admin product edits while the drop sells", () => {
  test("an edit keeps the stock sold meanwhile, and a stale stock number is refused with the current one", async () => {
    const { page, context, problems } = await newPage();
    await toProducts(page);
    const name = uniqueName("E2E Stock Tee");
    const { id } = await createProduct(context.request, { name, description: "Stock guard test product.", price: 30, inventory: 5 });
    const stock = async () => ((await (await context.request.get(`/api/admin/products/${id}`)).json()) as AdminProduct).inventory;
    const sell = async (left: number) =>
      assert.equal((await context.request.patch(`/api/admin/products/${id}`, { data: { inventory: left } })).status(), 200);
    const openEditor = async () => {
      await page.goto(`/admin/products?tab=form&id=${id}`);
      await expectVisible(page.getByRole("heading", { name: `Edit ${name}` }));
      await page.locator('[data-testid="cart-button"][data-hydrated]').waitFor({ state: "attached" });
    };

    // Two units sell while the admin fixes the description: the save keeps them sold.
    await openEditor();
    assert.equal(await page.getByLabel("Inventory").inputValue(), "5");
    await sell(3);
    await page.getByLabel("Description").fill("Stock guard test product, reworded.");
    await page.getByRole("button", { name: "Update Product" }).click();
    await expectVisible(page.getByText("Product Updated").first());
    assert.equal(await stock(), 3);

    // The admin types a new stock number from a stale screen: refused, and shown the current one.
    await openEditor();
    await sell(1);
    await page.getByLabel("Inventory").fill("10");
    await page.getByRole("button", { name: "Update Product" }).click();
    await expectVisible(page.getByText("Failed to Update Product").first());
    await expectVisible(page.getByText(/Inventory changed from 3 to 1 while you were editing/).first());
    const inventoryField = page.getByLabel("Inventory");
    for (let tries = 0; tries < 50 && (await inventoryField.inputValue()) !== "1"; tries++) await page.waitForTimeout(100);
    assert.equal(await inventoryField.inputValue(), "1");
    assert.equal(await stock(), 1);

    // Entered again against the current stock, it is taken.
    await page.getByLabel("Inventory").fill("10");
    await page.getByRole("button", { name: "Update Product" }).click();
    await expectVisible(page.getByText("Product Updated").first());
    assert.equal(await stock(), 10);

    assert.equal((await context.request.delete(`/api/admin/products/${id}`)).status(), 200);
    // The refused save is a 409 the browser reports on its console; nothing else may appear.
    assert.deepEqual(
      problems.filter((p) => !p.includes("status of 409")),
      [],
    );
  });
});

describe("admin products without JavaScript", () => {
  test("the list is rendered on the server, with a note that editing needs JavaScript", async () => {
    const { name } = await createProduct(await adminApi(), { name: uniqueName("E2E Heavyweight Tee") });
    const { page } = await newPage({ javaScriptEnabled: false });
    await toProducts(page);
    await expectVisible(page.getByRole("table", { name: "Products" }).getByText(name));
    // Chromium with scripting switched off by the driver still parses <noscript> as text, so read it
    // rather than look for it; a browser with JavaScript disabled shows it.
    assert.match((await page.locator("noscript").first().textContent()) ?? "", /Editing products needs JavaScript\./);
  });
});

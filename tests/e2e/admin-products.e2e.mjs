import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { before, describe, test } from "node:test";
import sharp from "sharp";
import { ADMIN, expectSettled, expectVisible, newPage, signIn } from "./browser.mjs";

const TMP = path.resolve(import.meta.dirname, "../.tmp/e2e-admin-products");
const files = [];

before(async () => {
  fs.mkdirSync(TMP, { recursive: true });
  for (const [name, color] of [["front.png", "#1f2a44"], ["back.png", "#b3261e"]]) {
    const file = path.join(TMP, name);
    await sharp({ create: { width: 900, height: 1100, channels: 3, background: color } }).png().toFile(file);
    files.push(file);
  }
});

async function toProducts(page) {
  await signIn(page, ADMIN);
  await page.waitForURL("**/admin/subscribers");
  await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Products", exact: true }).click();
  await page.getByRole("heading", { name: "Product Management" }).waitFor();
}

describe("admin products with JavaScript", () => {
  test("create a product with two images, see it in the store, hide it and see it gone", async () => {
    const { page, context, problems } = await newPage();
    const name = `E2E Drop Tee ${Date.now()}`;
    await toProducts(page);
    await expectVisible(page.getByRole("table", { name: "Products" }));

    await page.getByRole("link", { name: "Add/Edit Product" }).click();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Description").fill("A tee made by the end-to-end test, with two pictures.");
    await page.getByLabel("Price ($)").fill("42.50");
    await page.getByLabel("Inventory").fill("7");
    await page.getByRole("button", { name: "Black", exact: true }).click();
    await page.locator("#product-images-input").setInputFiles(files);
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

    // Leave the catalogue as the other tests expect it.
    await page.goto("/admin/products");
    await page.getByRole("button", { name: `Delete ${name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this product?" });
    await expectSettled(dialog);
    await dialog.getByRole("button", { name: "Delete Product" }).click();
    await expectVisible(page.getByText("Product Deleted"));
    await page.getByTestId("product-row").filter({ hasText: name }).waitFor({ state: "detached" });
    // The queued images' previews are the browser's own object URLs (blob:), not third parties.
    assert.deepEqual(problems.filter((problem) => !problem.startsWith("third-party request: blob:")), []);
    await context.close();
  });
});

describe("admin products without JavaScript", () => {
  test("the list is rendered on the server, with a note that editing needs JavaScript", async () => {
    const { page, context } = await newPage({ javaScriptEnabled: false });
    await toProducts(page);
    await expectVisible(page.getByRole("table", { name: "Products" }).getByText("Heritage Heavyweight Tee"));
    // Chromium with scripting switched off by the driver still parses <noscript> as text, so read it
    // rather than look for it; a browser with JavaScript disabled shows it.
    assert.match((await page.locator("noscript").first().textContent()) ?? "", /Editing products needs JavaScript\./);
    await context.close();
  });
});

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, Page } from "playwright-core";
import type { AdminProduct } from "#server/contracts/admin-products";
import { ADMIN, describe, expectVisible, newPage, signIn, test } from "./browser";
import { adminApi, createProduct, uniqueName } from "./support/data";

// Issue 23: the admin's sizes editor (presets, rename, reorder, remove, stock per size, the sum,
// a grid per colour), its refusal of a size that moved while the form was open, and the list's
// stock per size, with and without JavaScript, on a phone and a desktop.
const VIEWPORTS = [
  { name: "phone", viewport: { width: 390, height: 844 } },
  { name: "desktop", viewport: { width: 1280, height: 900 } },
];

// Screens to look at after a run (gitignored).
const SHOTS = path.resolve(import.meta.dirname, "../.tmp/e2e-admin-sizes");
async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

async function productOf(api: APIRequestContext, id: number): Promise<AdminProduct> {
  const response = await api.get(`/api/admin/products/${id}`);
  assert.equal(response.status(), 200);
  return (await response.json()) as AdminProduct;
}

async function openEditor(page: Page, id: number) {
  await signIn(page, ADMIN);
  await page.waitForURL((url) => url.pathname === "/admin");
  await page.goto(`/admin/products?tab=form&id=${id}`);
  await page.getByTestId("sizes-editor").waitFor();
}

const stockOf = (page: Page, name: string) => page.getByLabel(`Stock of ${name}`, { exact: true });

for (const { name: screen, viewport } of VIEWPORTS) {
  describe(`the sizes editor on a ${screen}`, () => {
    test("a preset, stock per size, a rename, a move and a removal save; the inventory is their sum", async () => {
      const api = await adminApi();
      const product = await createProduct(api, { name: uniqueName("E2E Editor Tee"), inventory: 5, availableColors: ["Black", "White"] });
      const { page, problems } = await newPage({ viewport });
      await openEditor(page, product.id);
      await expectVisible(page.getByTestId("one-size-note"));

      await page.getByRole("button", { name: "XS–XXL" }).click();
      assert.equal(await page.getByTestId("size-row").count(), 6);
      await stockOf(page, "M").fill("3");
      await stockOf(page, "L").fill("2");
      await page.getByRole("button", { name: "Remove XS" }).click();
      await page.getByRole("button", { name: "Move L up" }).click();
      await page.getByLabel("Label of size 5").fill("2XL");
      assert.equal(await page.getByTestId("inventory-sum").inputValue(), "5");
      assert.equal(await page.getByTestId("inventory-sum").getAttribute("readonly"), "");
      await page.getByTestId("sizes-editor").scrollIntoViewIfNeeded();
      await shot(page, `${screen}-editor`);

      await page.getByRole("button", { name: "Update Product" }).click();
      await expectVisible(page.getByText("Product Updated"));
      const saved = await productOf(api, product.id);
      assert.deepEqual(saved.sizes, [
        { label: "S", inventory: 0 },
        { label: "L", inventory: 2 },
        { label: "M", inventory: 3 },
        { label: "XL", inventory: 0 },
        { label: "2XL", inventory: 0 },
      ]);
      assert.equal(saved.inventory, 5);

      // The list shows the stock per size when the inventory is opened.
      const row = page.getByTestId("product-row").filter({ hasText: product.name });
      await row.getByTestId("size-stock").locator("summary").click();
      await expectVisible(row.getByText("M: 3"));
      await shot(page, `${screen}-list`);
      assert.deepEqual(problems, []);
    });

    test("a size that sold while the form was open is refused beside the editor, and shows its stock now", async () => {
      const api = await adminApi();
      const product = await createProduct(api, {
        name: uniqueName("E2E Moved Tee"),
        sizes: [
          { label: "S", inventory: 3 },
          { label: "M", inventory: 3 },
        ],
      });
      const { page } = await newPage({ viewport });
      await openEditor(page, product.id);
      // Meanwhile the stock of M moves (as a sale would).
      const moved = await api.patch(`/api/admin/products/${product.id}`, {
        data: {
          sizes: [
            { label: "S", inventory: 3 },
            { label: "M", inventory: 1 },
          ],
        },
      });
      assert.equal(moved.status(), 200);
      await stockOf(page, "M").fill("9");
      await page.getByRole("button", { name: "Update Product" }).click();
      await expectVisible(
        page
          .getByTestId("sizes-error")
          .getByText(
            "Size M changed from 3 to 1 while you were editing (orders and checkouts move it). The form now shows 1: enter the new number again and save.",
          ),
      );
      await shot(page, `${screen}-moved`);
      await page.waitForFunction(() => (document.querySelector('[aria-label="Stock of M"]') as HTMLInputElement | null)?.value === "1");
      assert.equal((await productOf(api, product.id)).sizes.find((s) => s.label === "M")?.inventory, 1);
      // Typed again against the stock now, it saves.
      await stockOf(page, "M").fill("9");
      await page.getByRole("button", { name: "Update Product" }).click();
      await expectVisible(page.getByText("Product Updated"));
      assert.equal((await productOf(api, product.id)).inventory, 12);
    });

    test("stock per colour: the grid starts with each size's stock on the first colour and saves per colour", async () => {
      const api = await adminApi();
      const product = await createProduct(api, {
        name: uniqueName("E2E Grid Tee"),
        availableColors: ["Black", "White"],
        sizes: [
          { label: "S", inventory: 2 },
          { label: "M", inventory: 3 },
        ],
      });
      const { page, problems } = await newPage({ viewport });
      await openEditor(page, product.id);
      await page.getByLabel("Stock per colour").check();
      await expectVisible(page.getByTestId("stock-grid"));
      assert.equal(await stockOf(page, "Black in M").inputValue(), "3");
      await stockOf(page, "White in M").fill("4");
      assert.equal(await page.getByTestId("inventory-sum").inputValue(), "9");
      await shot(page, `${screen}-grid`);
      await page.getByRole("button", { name: "Update Product" }).click();
      await expectVisible(page.getByText("Product Updated"));
      const saved = await productOf(api, product.id);
      assert.equal(saved.stockPerColor, true);
      assert.deepEqual(saved.variants, [
        { size: "S", color: "Black", inventory: 2 },
        { size: "S", color: "White", inventory: 0 },
        { size: "M", color: "Black", inventory: 3 },
        { size: "M", color: "White", inventory: 4 },
      ]);
      assert.deepEqual(problems, []);
    });
  });

  describe(`the product list without JavaScript on a ${screen}`, () => {
    test("opens a product's inventory to its stock per size", async () => {
      const api = await adminApi();
      const product = await createProduct(api, {
        name: uniqueName("E2E Listed Tee"),
        sizes: [
          { label: "S", inventory: 0 },
          { label: "M", inventory: 4 },
        ],
      });
      const { page, problems } = await newPage({ javaScriptEnabled: false, viewport });
      await signIn(page, ADMIN);
      await page.waitForURL((url) => url.pathname === "/admin");
      await page.goto("/admin/products");
      const row = page.getByTestId("product-row").filter({ hasText: product.name });
      await row.getByTestId("size-stock").locator("summary").click();
      await expectVisible(row.getByText("S: 0"));
      await expectVisible(row.getByText("M: 4"));
      await shot(page, `${screen}-list-nojs`);
      assert.deepEqual(problems, []);
    });
  });
}

describe("the size guide in the product form on a phone", () => {
  test("shows the guide the product has and saves an edit of it", async () => {
    const api = await adminApi();
    const product = await createProduct(api, {
      name: uniqueName("E2E Guide Form Tee"),
      sizes: [{ label: "M", inventory: 2 }],
      sizeGuide: "Size | Chest\nM | 40",
    });
    const { page, problems } = await newPage({ viewport: VIEWPORTS[0]!.viewport });
    await openEditor(page, product.id);
    const guide = page.getByLabel("Size guide");
    assert.equal(await guide.inputValue(), "Size | Chest\nM | 40");
    await guide.fill("Size | Chest\nM | 40-42\nMeasured flat.");
    await guide.scrollIntoViewIfNeeded();
    await shot(page, "phone-size-guide");
    await page.getByRole("button", { name: "Update Product" }).click();
    await expectVisible(page.getByText("Product Updated"));
    assert.equal((await productOf(api, product.id)).sizeGuide, "Size | Chest\nM | 40-42\nMeasured flat.");
    assert.deepEqual(problems, []);
  });
});

// Issue 23 (decision 0050): the admin's sizes editor saves through PATCH /api/admin/products/{id},
// so the stock of each size (and of each colour and size) is guarded as the product's inventory is
// with `inventoryWas`: a size that sold while the form was open is refused by name, a size sent
// back as it was loaded keeps what sales did. Switching a product to stock per colour keeps its
// stock (on the first colour) instead of zeroing it.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import type { AdminProduct } from "#server/contracts/admin-products";
import { ensureAdmin } from "#server/services/accounts/users";
import { processOrder } from "#server/services/checkout/checkout";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();
const admin = new CookieJar();
let n = 0;

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "stocker", password: "stocker-password", email: "stocker@example.com" });
  await api("POST", "/api/login", { body: { username: "stocker", password: "stocker-password" }, jar: admin });
});
beforeEach(() => ctx.clock.set("2026-06-01T12:00:00.000Z"));

async function create(body: Record<string, unknown>): Promise<AdminProduct> {
  const response = await api("POST", "/api/admin/products", {
    jar: admin,
    body: { description: "A piece that comes in sizes.", price: 40, ...body },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as AdminProduct;
}

const patchProduct = (id: number, body: unknown) => api("PATCH", `/api/admin/products/${id}`, { jar: admin, body });

async function expectError(response: Response, status: number, message: string) {
  expect({ status: response.status, message: ((await response.json()) as { message: string }).message }).toEqual({ status, message });
}

/** A shopper's checkout takes `quantity` units of one size (and colour) off the shelf: a live hold. */
async function sell(productId: number, size: string, color?: string) {
  const jar = new CookieJar();
  expect((await api("POST", "/api/cart", { body: { productId, size, color }, jar })).status).toBe(201);
  const { sessionId } = await ctx.db
    .selectFrom("cartItems")
    .select("sessionId")
    .where("productId", "=", productId)
    .executeTakeFirstOrThrow();
  await processOrder(ctx, {
    sessionId,
    customer: {
      email: `stock${++n}@example.com`,
      name: "Stock Shopper",
      phone: "",
      street: `${n} Shelf Street`,
      city: "Albany",
      state: "NY",
      zipCode: "12207",
      country: "US",
    },
    shippingMethod: "usps-ground_saver",
  });
  await ctx.db.deleteFrom("cartItems").where("productId", "=", productId).execute();
}

const sizesOf = async (productId: number) =>
  ctx.db.selectFrom("productSizes").select(["label", "inventory"]).where("productId", "=", productId).orderBy("position").execute();
const variantsOf = async (productId: number) =>
  ctx.db
    .selectFrom("productVariants")
    .select(["size", "color", "inventory"])
    .where("productId", "=", productId)
    .orderBy("size")
    .orderBy("color")
    .execute();
const inventoryOf = async (productId: number) =>
  (await ctx.db.selectFrom("products").select("inventory").where("id", "=", productId).executeTakeFirstOrThrow()).inventory;

describe("a size's stock is guarded against sales made while the form was open", () => {
  it("refuses a new number for a size that sold since the form loaded, naming it, and writes nothing", async () => {
    const product = await create({
      name: "Guarded Tee",
      sizes: [
        { label: "S", inventory: 3 },
        { label: "M", inventory: 3 },
      ],
    });
    await sell(product.id, "M");
    expect(await sizesOf(product.id)).toEqual([
      { label: "S", inventory: 3 },
      { label: "M", inventory: 2 },
    ]);
    const stale = await patchProduct(product.id, {
      sizes: [
        { label: "S", inventory: 4, was: 3 },
        { label: "M", inventory: 10, was: 3 },
      ],
    });
    await expectError(
      stale,
      409,
      "Size M changed from 3 to 2 while you were editing (orders and checkouts move it). The form now shows 2: enter the new number again and save.",
    );
    expect(await sizesOf(product.id)).toEqual([
      { label: "S", inventory: 3 },
      { label: "M", inventory: 2 },
    ]);
    expect(await inventoryOf(product.id)).toBe(5);
  });

  it("a size sent back as it was loaded keeps the sales made since; the others take their new numbers", async () => {
    const product = await create({
      name: "Kept Tee",
      sizes: [
        { label: "S", inventory: 3 },
        { label: "M", inventory: 3 },
      ],
    });
    await sell(product.id, "M");
    const saved = await patchProduct(product.id, {
      sizes: [
        { label: "S", inventory: 6, was: 3 },
        { label: "M", inventory: 3, was: 3 },
        { label: "L", inventory: 1 },
      ],
    });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as AdminProduct).sizes).toEqual([
      { label: "S", inventory: 6 },
      { label: "M", inventory: 2 },
      { label: "L", inventory: 1 },
    ]);
    expect(await inventoryOf(product.id)).toBe(9);
    // Without `was` the list is written as sent, as before: the REST contract did not change.
    expect(
      (
        await patchProduct(product.id, {
          sizes: [
            { label: "S", inventory: 1 },
            { label: "M", inventory: 1 },
          ],
        })
      ).status,
    ).toBe(200);
    expect(await sizesOf(product.id)).toEqual([
      { label: "S", inventory: 1 },
      { label: "M", inventory: 1 },
    ]);
  });

  it("guards each colour and size of a grid the same way", async () => {
    const product = await create({
      name: "Guarded Grid Tee",
      availableColors: ["Black", "White"],
      sizes: [{ label: "M" }],
      stockPerColor: true,
      variants: [
        { size: "M", color: "Black", inventory: 2 },
        { size: "M", color: "White", inventory: 2 },
      ],
    });
    await sell(product.id, "M", "Black");
    await expectError(
      await patchProduct(product.id, {
        variants: [
          { size: "M", color: "Black", inventory: 5, was: 2 },
          { size: "M", color: "White", inventory: 2, was: 2 },
        ],
      }),
      409,
      "Black in size M changed from 2 to 1 while you were editing (orders and checkouts move it). The form now shows 1: enter the new number again and save.",
    );
    expect(await variantsOf(product.id)).toEqual([
      { size: "M", color: "Black", inventory: 1 },
      { size: "M", color: "White", inventory: 2 },
    ]);
    const saved = await patchProduct(product.id, {
      variants: [
        { size: "M", color: "Black", inventory: 2, was: 2 },
        { size: "M", color: "White", inventory: 7, was: 2 },
      ],
    });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as AdminProduct).variants).toEqual([
      { size: "M", color: "Black", inventory: 1 },
      { size: "M", color: "White", inventory: 7 },
    ]);
    expect(await inventoryOf(product.id)).toBe(8);
  });
});

describe("switching a product to stock per colour without a grid", () => {
  it("keeps each size's stock, on the first colour", async () => {
    const product = await create({
      name: "Switched Tee",
      availableColors: ["Black", "White"],
      sizes: [
        { label: "S", inventory: 2 },
        { label: "M", inventory: 3 },
      ],
    });
    const saved = await patchProduct(product.id, { stockPerColor: true });
    expect(saved.status).toBe(200);
    const answer = (await saved.json()) as AdminProduct;
    expect(answer.sizes).toEqual([
      { label: "S", inventory: 2 },
      { label: "M", inventory: 3 },
    ]);
    expect(answer.inventory).toBe(5);
    expect(await variantsOf(product.id)).toEqual([
      { size: "M", color: "Black", inventory: 3 },
      { size: "M", color: "White", inventory: 0 },
      { size: "S", color: "Black", inventory: 2 },
      { size: "S", color: "White", inventory: 0 },
    ]);
  });

  it("a size whose grid row is sent takes the grid; one left out keeps its stock on the first colour", async () => {
    const product = await create({
      name: "Half Grid Tee",
      availableColors: ["Black", "White"],
      sizes: [
        { label: "S", inventory: 2 },
        { label: "M", inventory: 3 },
      ],
    });
    const saved = await patchProduct(product.id, { stockPerColor: true, variants: [{ size: "S", color: "White", inventory: 4 }] });
    expect(saved.status).toBe(200);
    expect(await variantsOf(product.id)).toEqual([
      { size: "M", color: "Black", inventory: 3 },
      { size: "M", color: "White", inventory: 0 },
      { size: "S", color: "Black", inventory: 0 },
      { size: "S", color: "White", inventory: 4 },
    ]);
    expect(await inventoryOf(product.id)).toBe(7);
  });

  it("a product without sizes keeps its inventory, on the first colour", async () => {
    const product = await create({ name: "Switched Cap", inventory: 4, availableColors: ["Black", "Red"] });
    expect((await patchProduct(product.id, { stockPerColor: true })).status).toBe(200);
    expect(await variantsOf(product.id)).toEqual([
      { size: "", color: "Black", inventory: 4 },
      { size: "", color: "Red", inventory: 0 },
    ]);
    expect(await inventoryOf(product.id)).toBe(4);
  });
});

import type { Kysely, Transaction } from "kysely";
import type { DB, Product } from "#db/schema";
import { SIZE_MESSAGES, type ProductSize, type ProductVariant } from "#server/contracts/sizes-view";
import type { AppContext } from "#server/context";
import { compiledOnce } from "#db/compiled-query";
import { isPostgres } from "#db/engine";
import { Conflict, Invalid } from "#server/errors";

/**
 * Stock per size and colour (issue 23, decision 0045). A unit of stock is named by a product, a
 * size and a colour ('' for none: a product without sizes has one implicit size, "One Size"). Its
 * shelf is the variant's row with stock per colour, else the size's row, else the product's
 * `inventory`, as before sizes existed. The product's (and, per colour, the size's) stock is the
 * sum of what is below it, written again after every movement in the same transaction.
 */

export interface ProductStock {
  sizes: ProductSize[];
  /** Only for a product that keeps stock per colour and size. */
  variants: ProductVariant[] | null;
}

export const NO_STOCK: ProductStock = Object.freeze({ sizes: [], variants: null }) as ProductStock;

const sizesOfOne = compiledOnce((db, $: { productId: number }) =>
  db.selectFrom("productSizes").select(["productId", "label", "inventory"]).where("productId", "=", $.productId).orderBy("position"),
);

/** The sizes and variants of some products, in one query each. */
export async function stockOf(
  db: Kysely<DB>,
  products: readonly Pick<Product, "id" | "stockPerColor">[],
): Promise<Map<number, ProductStock>> {
  const map = new Map<number, ProductStock>();
  if (products.length === 0) return map;
  const ids = [...new Set(products.map((p) => p.id))];
  // One product (a bag add, a product page, most bags on drop day): the statement kept compiled.
  const sizes =
    ids.length === 1
      ? await sizesOfOne.all(db, { productId: ids[0]! })
      : await db
          .selectFrom("productSizes")
          .select(["productId", "label", "inventory"])
          .where("productId", "in", ids)
          .orderBy("productId")
          .orderBy("position")
          .execute();
  for (const row of sizes) {
    const stock = map.get(row.productId) ?? { sizes: [], variants: null };
    stock.sizes.push({ label: row.label, inventory: row.inventory });
    map.set(row.productId, stock);
  }
  const perColor = products.filter((p) => p.stockPerColor === 1).map((p) => p.id);
  if (perColor.length > 0) {
    const variants = await db
      .selectFrom("productVariants")
      .select(["productId", "size", "color", "inventory"])
      .where("productId", "in", perColor)
      .orderBy("id")
      .execute();
    for (const id of perColor) if (!map.has(id)) map.set(id, { sizes: [], variants: null });
    for (const id of perColor) map.get(id)!.variants = [];
    for (const row of variants) {
      map.get(row.productId)!.variants!.push({ size: row.size === "" ? null : row.size, color: row.color, inventory: row.inventory });
    }
    // In the product's size order, then its colour order as the grid was saved.
    for (const id of perColor) {
      const stock = map.get(id)!;
      const order = new Map(stock.sizes.map((s, i) => [s.label, i]));
      stock.variants!.sort((a, b) => (order.get(a.size ?? "") ?? 0) - (order.get(b.size ?? "") ?? 0));
    }
  }
  return map;
}

export async function stockOfOne(db: Kysely<DB>, product: Pick<Product, "id" | "stockPerColor">): Promise<ProductStock> {
  return (await stockOf(db, [product])).get(product.id) ?? NO_STOCK;
}

/**
 * A product's size labels in order; empty for a product without sizes (sold as "One Size").
 * For other parts of the store (the order page, the draw) that need to know what a product comes in.
 */
export async function listSizeLabels(ctx: AppContext, productId: number): Promise<string[]> {
  const rows = await ctx.db.selectFrom("productSizes").select("label").where("productId", "=", productId).orderBy("position").execute();
  return rows.map((row) => row.label);
}

export function colorsOf(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.filter((c): c is string => typeof c === "string") : [];
  } catch {
    return [];
  }
}

/** A line's size and colour as stored: '' for none. */
export interface Choice {
  size: string;
  color: string;
}

/** How many units one choice has on the shelf. */
export function unitStock(product: Pick<Product, "inventory">, stock: ProductStock, choice: Choice): number {
  if (stock.variants) {
    return stock.variants.find((v) => (v.size ?? "") === choice.size && v.color === choice.color)?.inventory ?? 0;
  }
  if (choice.size !== "") return stock.sizes.find((s) => s.label === choice.size)?.inventory ?? 0;
  return product.inventory;
}

/**
 * The shopper's size and colour, checked against the product: a product with sizes needs one of
 * them (matched without regard to case), one with colours gets the first colour in stock when
 * none is named. Messages are the issue's, shown as they are.
 */
export function resolveChoice(
  product: Pick<Product, "name" | "inventory" | "availableColors">,
  stock: ProductStock,
  wanted: { size?: string | null; color?: string | null },
): Choice {
  const colors = colorsOf(product.availableColors);
  const sizeText = wanted.size?.trim() ?? "";
  let size = "";
  if (stock.sizes.length > 0) {
    if (sizeText === "") throw new Invalid(SIZE_MESSAGES.chooseSize, { size: [SIZE_MESSAGES.chooseSize] });
    const found = stock.sizes.find((s) => s.label.toLowerCase() === sizeText.toLowerCase());
    if (!found) {
      const message = SIZE_MESSAGES.sizeNotAvailable(sizeText, product.name);
      throw new Invalid(message, { size: [message] });
    }
    size = found.label;
  } else if (sizeText !== "" && sizeText.toLowerCase() !== "one size") {
    const message = SIZE_MESSAGES.sizeNotAvailable(sizeText, product.name);
    throw new Invalid(message, { size: [message] });
  }
  const colorText = wanted.color?.trim() ?? "";
  let color = "";
  if (colorText !== "") {
    const found = colors.find((c) => c.toLowerCase() === colorText.toLowerCase());
    if (!found) {
      const message = SIZE_MESSAGES.colorNotAvailable(colorText, product.name);
      throw new Invalid(message, { color: [message] });
    }
    color = found;
  } else if (colors.length > 0) {
    // As the product page preselects it: the first colour that can still be bought in this size.
    color = colors.find((c) => unitStock(product, stock, { size, color: c }) > 0) ?? colors[0]!;
  }
  return { size, color };
}

/** The 409 for a choice with nothing on the shelf, naming what sold out. */
export function soldOutMessage(productName: string, stock: ProductStock, choice: Choice): string | null {
  if (stock.variants && choice.color !== "") {
    return choice.size === ""
      ? SIZE_MESSAGES.colorSoldOut(productName, choice.color)
      : SIZE_MESSAGES.variantSoldOut(productName, choice.color, choice.size);
  }
  if (choice.size !== "") return SIZE_MESSAGES.sizeSoldOut(productName, choice.size);
  return null;
}

export function soldOutConflict(productName: string, stock: ProductStock, choice: Choice): Conflict | null {
  const message = soldOutMessage(productName, stock, choice);
  return message === null ? null : new Conflict(message);
}

/** A line's name in checkout messages: "Tee (Size M, Black)" for a sized one, the name alone otherwise. */
export function lineName(name: string, choice: Choice): string {
  const parts = [choice.size === "" ? null : `Size ${choice.size}`, choice.color === "" ? null : choice.color].filter(Boolean);
  return parts.length === 0 ? name : `${name} (${parts.join(", ")})`;
}

/* ----------------------------------------------------------------------------------------- */
/* Moving stock, inside a write transaction                                                    */
/* ----------------------------------------------------------------------------------------- */

type Trx = Transaction<DB> | Kysely<DB>;

/**
 * Locks the products' rows to the end of the transaction, in id order, on PostgreSQL (`SELECT …
 * ORDER BY id FOR UPDATE`). Every transaction that moves stock takes it before its first write
 * (Process Order, putting held units back, a late payment's re-take, an admin's stock edit): two
 * of them on the same products then queue, whatever order their lines are in, and none holds a
 * size's row while it waits for the product's (no deadlock). Two orders of one customer also
 * queue before either counts what the customer owns. On SQLite the transaction is BEGIN
 * IMMEDIATE, already the only writer: nothing to lock, no statement.
 */
export async function lockProductRows(trx: Transaction<DB>, productIds: number[]): Promise<void> {
  if (!isPostgres(trx)) return;
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  await trx.selectFrom("products").select("id").where("id", "in", ids).orderBy("id").forUpdate().execute();
}

/**
 * Takes `quantity` units of one choice off the shelf with one conditional update of its own row
 * (never below zero: two buyers of the last M get one M; an L never blocks an M), then writes the
 * sums above it. False when the shelf is short. A product without sizes or stock per colour moves
 * exactly as it always did: one conditional update of `products.inventory`.
 */
export async function takeUnits(trx: Trx, productId: number, choice: Choice, quantity: number): Promise<boolean> {
  const shelf = await shelfOf(trx, productId, choice);
  if (shelf === "product") {
    const taken = await trx
      .updateTable("products")
      .set((eb) => ({ inventory: eb("inventory", "-", quantity) }))
      .where("id", "=", productId)
      .where("inventory", ">=", quantity)
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }
  const taken =
    shelf === "variant"
      ? await trx
          .updateTable("productVariants")
          .set((eb) => ({ inventory: eb("inventory", "-", quantity) }))
          .where("productId", "=", productId)
          .where("size", "=", choice.size)
          .where("color", "=", choice.color)
          .where("inventory", ">=", quantity)
          .executeTakeFirst()
      : await trx
          .updateTable("productSizes")
          .set((eb) => ({ inventory: eb("inventory", "-", quantity) }))
          .where("productId", "=", productId)
          .where("label", "=", choice.size)
          .where("inventory", ">=", quantity)
          .executeTakeFirst();
  if (Number(taken.numUpdatedRows) !== 1) return false;
  await writeSums(trx, productId);
  return true;
}

/** Puts units back on their shelf (a released hold). A shelf gone meanwhile puts them on the product's. */
export async function putBackUnits(trx: Trx, productId: number, choice: Choice, quantity: number): Promise<void> {
  const shelf = await shelfOf(trx, productId, choice);
  if (shelf === "product") {
    await trx
      .updateTable("products")
      .set((eb) => ({ inventory: eb("inventory", "+", quantity) }))
      .where("id", "=", productId)
      .execute();
    return;
  }
  if (shelf === "variant") {
    await trx
      .updateTable("productVariants")
      .set((eb) => ({ inventory: eb("inventory", "+", quantity) }))
      .where("productId", "=", productId)
      .where("size", "=", choice.size)
      .where("color", "=", choice.color)
      .execute();
  } else {
    await trx
      .updateTable("productSizes")
      .set((eb) => ({ inventory: eb("inventory", "+", quantity) }))
      .where("productId", "=", productId)
      .where("label", "=", choice.size)
      .execute();
  }
  await writeSums(trx, productId);
}

/** Units left of one choice, read inside the transaction (for the message after a lost race). */
export async function unitsLeft(trx: Trx, productId: number, choice: Choice): Promise<number> {
  const shelf = await shelfOf(trx, productId, choice);
  if (shelf === "variant") {
    const row = await trx
      .selectFrom("productVariants")
      .select("inventory")
      .where("productId", "=", productId)
      .where("size", "=", choice.size)
      .where("color", "=", choice.color)
      .executeTakeFirst();
    return row?.inventory ?? 0;
  }
  if (shelf === "size") {
    const row = await trx
      .selectFrom("productSizes")
      .select("inventory")
      .where("productId", "=", productId)
      .where("label", "=", choice.size)
      .executeTakeFirst();
    return row?.inventory ?? 0;
  }
  const row = await trx.selectFrom("products").select("inventory").where("id", "=", productId).executeTakeFirst();
  return row?.inventory ?? 0;
}

/**
 * Which row holds a choice's stock, from the product as it is now (its row is locked by the
 * caller on PostgreSQL; on SQLite the transaction is the only writer). A line without a size and
 * without stock per colour never costs more than before: it is the product's own row.
 */
async function shelfOf(trx: Trx, productId: number, choice: Choice): Promise<"product" | "size" | "variant"> {
  if (choice.size === "" && choice.color === "") return "product";
  const product = await trx.selectFrom("products").select("stockPerColor").where("id", "=", productId).executeTakeFirst();
  if (product?.stockPerColor === 1 && choice.color !== "") {
    const variant = await trx
      .selectFrom("productVariants")
      .select("id")
      .where("productId", "=", productId)
      .where("size", "=", choice.size)
      .where("color", "=", choice.color)
      .executeTakeFirst();
    if (variant) return "variant";
  }
  if (choice.size === "") return "product";
  const size = await trx
    .selectFrom("productSizes")
    .select("id")
    .where("productId", "=", productId)
    .where("label", "=", choice.size)
    .executeTakeFirst();
  return size ? "size" : "product";
}

/**
 * The sums: with stock per colour each size's stock is its variants', and the product's stock is
 * its sizes' (or, without sizes, its variants'). Recomputed rather than moved by the same amount,
 * so a sum can never drift from what it sums. Nothing to do for a product without either.
 */
export async function writeSums(trx: Trx, productId: number): Promise<void> {
  const product = await trx.selectFrom("products").select("stockPerColor").where("id", "=", productId).executeTakeFirst();
  if (!product) return;
  const hasSizes = (await trx.selectFrom("productSizes").select("id").where("productId", "=", productId).executeTakeFirst()) !== undefined;
  if (product.stockPerColor === 1) {
    if (hasSizes) {
      await trx
        .updateTable("productSizes")
        .set((eb) => ({
          inventory: eb
            .selectFrom("productVariants")
            .select((v) => v.fn.coalesce(v.fn.sum<number>("productVariants.inventory"), v.lit(0)).as("total"))
            .whereRef("productVariants.productId", "=", "productSizes.productId")
            .whereRef("productVariants.size", "=", "productSizes.label"),
        }))
        .where("productId", "=", productId)
        .execute();
    } else {
      await trx
        .updateTable("products")
        .set((eb) => ({
          inventory: eb
            .selectFrom("productVariants")
            .select((v) => v.fn.coalesce(v.fn.sum<number>("productVariants.inventory"), v.lit(0)).as("total"))
            .where("productVariants.productId", "=", productId),
        }))
        .where("id", "=", productId)
        .execute();
      return;
    }
  }
  if (!hasSizes) return;
  await trx
    .updateTable("products")
    .set((eb) => ({
      inventory: eb
        .selectFrom("productSizes")
        .select((s) => s.fn.coalesce(s.fn.sum<number>("productSizes.inventory"), s.lit(0)).as("total"))
        .where("productSizes.productId", "=", productId),
    }))
    .where("id", "=", productId)
    .execute();
}

import type { Transaction } from "kysely";
import type { DB } from "#db/schema";
import { SIZE_MESSAGES } from "#server/contracts/sizes-view";
import { Conflict, Invalid } from "#server/errors";
import { colorsOf, writeSums } from "./product-stock";

/**
 * The admin's side of sizes and colours (issue 23, decision 0045): the whole list of sizes, and
 * with stock per colour the grid, written inside the product's write transaction (its row locked
 * on PostgreSQL by the caller). A size or a colour-and-size taken out of the list is removed only
 * when no checkout holds units of it: those units would have no shelf to go back to.
 */

export interface StockInput {
  sizes?: { label: string; inventory: number }[];
  stockPerColor?: boolean;
  variants?: { size: string | null; color: string; inventory: number }[];
  availableColors?: string[];
}

export const touchesStock = (input: StockInput) =>
  input.sizes !== undefined || input.stockPerColor !== undefined || input.variants !== undefined;

/** Sizes of a product now, in order. */
export async function sizeLabelsIn(trx: Transaction<DB>, productId: number): Promise<string[]> {
  const rows = await trx.selectFrom("productSizes").select("label").where("productId", "=", productId).orderBy("position").execute();
  return rows.map((row) => row.label);
}

async function heldChoices(trx: Transaction<DB>, productId: number, now: string) {
  return trx
    .selectFrom("inventoryHolds")
    .select(["size", "color"])
    .where("productId", "=", productId)
    .where("status", "=", "held")
    .where("expiresAt", ">", now)
    .execute();
}

/**
 * Writes the sizes (and variants) a create or a patch sends, then the sums. `input.availableColors`
 * is the product's colour list after the same patch (the caller has written it).
 */
export async function saveStock(trx: Transaction<DB>, productId: number, input: StockInput, now: string): Promise<void> {
  const product = await trx
    .selectFrom("products")
    .select(["stockPerColor", "availableColors"])
    .where("id", "=", productId)
    .executeTakeFirstOrThrow();
  const colors = input.availableColors ?? colorsOf(product.availableColors);
  const perColor = input.stockPerColor ?? product.stockPerColor === 1;
  if (perColor && colors.length === 0)
    throw new Invalid(SIZE_MESSAGES.variantsNeedColors, { stockPerColor: [SIZE_MESSAGES.variantsNeedColors] });

  const current = await trx
    .selectFrom("productSizes")
    .select(["id", "label", "labelKey", "inventory"])
    .where("productId", "=", productId)
    .orderBy("position")
    .execute();
  const sizes = input.sizes ?? current.map(({ label, inventory }) => ({ label, inventory }));
  const keys = new Set(sizes.map((size) => size.label.toLowerCase()));
  const held = await heldChoices(trx, productId, now);

  const removed = current.filter((size) => !keys.has(size.labelKey));
  const removedHeld = removed.filter((size) => held.some((hold) => hold.size === size.label)).map((size) => size.label);
  if (removedHeld.length > 0) throw new Conflict(SIZE_MESSAGES.sizeHeld(removedHeld), { sizes: [SIZE_MESSAGES.sizeHeld(removedHeld)] });

  if (removed.length > 0) {
    await trx
      .deleteFrom("productSizes")
      .where(
        "id",
        "in",
        removed.map((size) => size.id),
      )
      .execute();
  }
  for (const [position, size] of sizes.entries()) {
    const key = size.label.toLowerCase();
    const existing = current.find((row) => row.labelKey === key);
    // With stock per colour a size's stock is its colours' sum, written by writeSums below.
    if (existing) {
      await trx
        .updateTable("productSizes")
        .set({ label: size.label, position, ...(perColor ? {} : { inventory: size.inventory }) })
        .where("id", "=", existing.id)
        .execute();
    } else {
      await trx
        .insertInto("productSizes")
        .values({ productId, label: size.label, labelKey: key, position, inventory: perColor ? 0 : size.inventory })
        .execute();
    }
  }
  // A renamed size's bag lines and holds follow it (the label changed case only: same key).
  for (const size of sizes) {
    const existing = current.find((row) => row.labelKey === size.label.toLowerCase());
    if (existing && existing.label !== size.label) {
      await trx
        .updateTable("inventoryHolds")
        .set({ size: size.label })
        .where("productId", "=", productId)
        .where("size", "=", existing.label)
        .execute();
      await trx
        .updateTable("cartItems")
        .set({ size: size.label })
        .where("productId", "=", productId)
        .where("size", "=", existing.label)
        .execute();
      await trx
        .updateTable("productVariants")
        .set({ size: size.label })
        .where("productId", "=", productId)
        .where("size", "=", existing.label)
        .execute();
    }
  }

  await saveVariants(trx, productId, { perColor, wasPerColor: product.stockPerColor === 1, colors, sizes, variants: input.variants, held });
  await trx
    .updateTable("products")
    .set({ stockPerColor: perColor ? 1 : 0 })
    .where("id", "=", productId)
    .where("stockPerColor", "!=", perColor ? 1 : 0)
    .execute();
  await writeSums(trx, productId);
}

async function saveVariants(
  trx: Transaction<DB>,
  productId: number,
  state: {
    perColor: boolean;
    wasPerColor: boolean;
    colors: string[];
    sizes: { label: string }[];
    variants: StockInput["variants"];
    held: { size: string; color: string }[];
  },
): Promise<void> {
  const existing = await trx
    .selectFrom("productVariants")
    .select(["id", "size", "color", "inventory"])
    .where("productId", "=", productId)
    .execute();
  if (!state.perColor) {
    if (existing.length > 0) {
      // Back to shared stock: each size keeps the sum its colours had (writeSums does not touch it now).
      await trx.deleteFrom("productVariants").where("productId", "=", productId).execute();
    }
    return;
  }
  const sizeLabels = state.sizes.length > 0 ? state.sizes.map((s) => s.label) : [""];
  const given = new Map<string, number>();
  for (const variant of state.variants ?? []) {
    const size = variant.size === null ? "" : (sizeLabels.find((l) => l.toLowerCase() === variant.size!.toLowerCase()) ?? null);
    const color = state.colors.find((c) => c.toLowerCase() === variant.color.toLowerCase());
    if (size === null || color === undefined || (size === "" && state.sizes.length > 0)) {
      const message = SIZE_MESSAGES.variantUnknown(variant.color, variant.size);
      throw new Invalid(message, { variants: [message] });
    }
    given.set(`${size}\u0000${color}`, variant.inventory);
  }
  const combos = sizeLabels.flatMap((size) => state.colors.map((color) => ({ size, color })));
  const kept = new Set(combos.map((c) => `${c.size}\u0000${c.color}`));
  const gone = existing.filter((v) => !kept.has(`${v.size}\u0000${v.color}`));
  if (gone.some((v) => state.held.some((h) => h.size === v.size && h.color === v.color))) throw new Conflict(SIZE_MESSAGES.modeHeld);
  if (gone.length > 0) {
    await trx
      .deleteFrom("productVariants")
      .where(
        "id",
        "in",
        gone.map((v) => v.id),
      )
      .execute();
  }
  for (const combo of combos) {
    const key = `${combo.size}\u0000${combo.color}`;
    const row = existing.find((v) => v.size === combo.size && v.color === combo.color);
    const inventory = given.get(key);
    if (row) {
      if (inventory !== undefined) await trx.updateTable("productVariants").set({ inventory }).where("id", "=", row.id).execute();
    } else {
      await trx
        .insertInto("productVariants")
        .values({ productId, size: combo.size, color: combo.color, inventory: inventory ?? 0 })
        .execute();
    }
  }
}

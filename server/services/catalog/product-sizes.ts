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

/**
 * `was` (optional, per size and per variant) is the stock the admin's form loaded: the same
 * guard as `inventoryWas` on a product without sizes. Sent back unchanged it means "leave it as
 * sales left it"; a new number while the row moved since is a 409 naming the size.
 */
export interface StockInput {
  sizes?: { label: string; inventory: number; was?: number }[];
  stockPerColor?: boolean;
  variants?: { size: string | null; color: string; inventory: number; was?: number }[];
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
  const sizes: NonNullable<StockInput["sizes"]> = input.sizes ?? current.map(({ label, inventory }) => ({ label, inventory }));
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
  const wasPerColor = product.stockPerColor === 1;
  for (const [position, size] of sizes.entries()) {
    const key = size.label.toLowerCase();
    const existing = current.find((row) => row.labelKey === key);
    // With stock per colour a size's stock is its colours' sum, written by writeSums below; a
    // product switching to it keeps each size's stock here for saveVariants to hand on.
    const writesStock = !perColor || !wasPerColor;
    if (existing) {
      const was = size.was;
      // Sent back as loaded: the admin did not touch it, and sales since stand.
      const keep = !writesStock || (was !== undefined && size.inventory === was);
      const moved = await trx
        .updateTable("productSizes")
        .set({ label: size.label, position, ...(keep ? {} : { inventory: size.inventory }) })
        .where("id", "=", existing.id)
        // One conditional statement: a hold taken after the form loaded is never overwritten.
        .$if(!keep && was !== undefined, (q) => q.where("inventory", "=", was!))
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) {
        const now = await trx.selectFrom("productSizes").select("inventory").where("id", "=", existing.id).executeTakeFirstOrThrow();
        const message = SIZE_MESSAGES.sizeMoved(existing.label, was!, now.inventory);
        throw new Conflict(message, { sizes: [message] });
      }
    } else {
      await trx
        .insertInto("productSizes")
        .values({ productId, label: size.label, labelKey: key, position, inventory: writesStock ? size.inventory : 0 })
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

  await saveVariants(trx, productId, { perColor, wasPerColor, colors, sizes, variants: input.variants, held });
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
  const given = new Map<string, { inventory: number; was?: number }>();
  for (const variant of state.variants ?? []) {
    const size = variant.size === null ? "" : (sizeLabels.find((l) => l.toLowerCase() === variant.size!.toLowerCase()) ?? null);
    const color = state.colors.find((c) => c.toLowerCase() === variant.color.toLowerCase());
    if (size === null || color === undefined || (size === "" && state.sizes.length > 0)) {
      const message = SIZE_MESSAGES.variantUnknown(variant.color, variant.size);
      throw new Invalid(message, { variants: [message] });
    }
    given.set(`${size}\u0000${color}`, { inventory: variant.inventory, was: variant.was });
  }
  const carried = state.wasPerColor ? new Map<string, number>() : await sharedStock(trx, productId, sizeLabels, given);
  const combos = sizeLabels.flatMap((size) => state.colors.map((color) => ({ size, color })));
  const kept = new Set(combos.map((c) => `${c.size}\u0000${c.color}`));
  const gone = existing.filter((v) => !kept.has(`${v.size}\u0000${v.color}`));
  if (gone.some((v) => state.held.some((h) => h.size === v.size && h.color === v.color))) {
    throw new Conflict(SIZE_MESSAGES.modeHeld, { variants: [SIZE_MESSAGES.modeHeld] });
  }
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
    const sent = given.get(key);
    if (row) {
      // Sent back as loaded: sales since stand. A new number needs the row still at what was loaded.
      if (sent === undefined || (sent.was !== undefined && sent.inventory === sent.was)) continue;
      const moved = await trx
        .updateTable("productVariants")
        .set({ inventory: sent.inventory })
        .where("id", "=", row.id)
        .$if(sent.was !== undefined, (q) => q.where("inventory", "=", sent.was!))
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) {
        const now = await trx.selectFrom("productVariants").select("inventory").where("id", "=", row.id).executeTakeFirstOrThrow();
        const message = SIZE_MESSAGES.variantMoved(combo.color, combo.size === "" ? null : combo.size, sent.was!, now.inventory);
        throw new Conflict(message, { variants: [message] });
      }
    } else {
      const inventory = sent?.inventory ?? (combo.color === state.colors[0] ? (carried.get(combo.size) ?? 0) : 0);
      await trx.insertInto("productVariants").values({ productId, size: combo.size, color: combo.color, inventory }).execute();
    }
  }
}

/**
 * A product switching to stock per colour: what each size (or, without sizes, the product) has
 * now, for the sizes whose grid row was not sent. It goes on the first colour, the others start
 * at 0. A shopkeeper who ticks "stock per colour" and saves expects to keep selling what is on
 * the shelf: zeroing it would sell the drop out on the spot, and refusing would make a grid of
 * numbers mandatory for a switch. On the first colour, the grid shows the units where they went,
 * and the totals stay what they were until the admin spreads them.
 */
async function sharedStock(
  trx: Transaction<DB>,
  productId: number,
  sizeLabels: string[],
  given: Map<string, unknown>,
): Promise<Map<string, number>> {
  const sent = new Set([...given.keys()].map((key) => key.split("\u0000")[0]));
  const carried = new Map<string, number>();
  if (sizeLabels.length === 1 && sizeLabels[0] === "") {
    if (sent.has("")) return carried;
    const row = await trx.selectFrom("products").select("inventory").where("id", "=", productId).executeTakeFirstOrThrow();
    carried.set("", row.inventory);
    return carried;
  }
  const rows = await trx.selectFrom("productSizes").select(["label", "inventory"]).where("productId", "=", productId).execute();
  for (const row of rows) if (!sent.has(row.label)) carried.set(row.label, row.inventory);
  return carried;
}

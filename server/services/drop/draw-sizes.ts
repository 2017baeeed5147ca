import type { AppContext } from "#server/context";
import { listSizeLabels } from "#server/services/catalog/product-stock";

/**
 * The size labels one may enter a product's draw for, in the product's order; [] for a product
 * without sizes (its one size is ""). The one place draws learn a product's sizes (decision 0047).
 */
export async function drawSizesOf(ctx: AppContext, productId: number): Promise<string[]> {
  return listSizeLabels(ctx, productId);
}

/**
 * The entrant's size as the product spells it (matched without regard to case, as the bag does),
 * or null when the product does not offer it. A product without sizes takes only "".
 */
export function offeredSize(sizes: readonly string[], wanted: string): string | null {
  if (sizes.length === 0) return wanted === "" ? "" : null;
  return sizes.find((label) => label.toLowerCase() === wanted.toLowerCase()) ?? null;
}

/** Each size's stock, in the product's order ([] without sizes): the most units a draw may give of it. */
export async function drawSizeStockOf(ctx: AppContext, productId: number): Promise<{ label: string; inventory: number }[]> {
  return ctx.db.selectFrom("productSizes").select(["label", "inventory"]).where("productId", "=", productId).orderBy("position").execute();
}

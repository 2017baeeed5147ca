import type { AppContext } from "#server/context";
import { listSizeLabels } from "#server/services/catalog/product-stock";

/**
 * The size labels one may enter a product's draw for, in the product's order; [] for a product
 * without sizes (its one size is ""). The one place draws learn a product's sizes (decision 0047).
 * Only sizes the draw gives units of: an entry for a size added to the product after the draw was
 * made, or given 0 units, could never win (decision 0052). A draw giving no units at all offers
 * every size, as before, rather than none.
 */
export async function drawSizesOf(ctx: AppContext, draw: { productId: number; units: string }): Promise<string[]> {
  const labels = await listSizeLabels(ctx, draw.productId);
  if (labels.length === 0) return labels;
  const units = JSON.parse(draw.units) as Record<string, number>;
  const drawn = labels.filter((label) => (units[label] ?? 0) > 0);
  return drawn.length > 0 ? drawn : labels;
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

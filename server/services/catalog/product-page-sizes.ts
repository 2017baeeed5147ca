import type { PublicProduct } from "#server/contracts/catalog";
import type { PublicDraw } from "#server/contracts/draws";
import type { SizeGuidePlace } from "#server/contracts/size-guide";

export interface ProductPageSizes {
  /** Sold out or coming soon: the colours and sizes are shown, not chosen. */
  showsSizes: boolean;
  /** The size labels shown while `showsSizes`, in order; [] is "One Size". */
  listedSizes: string[];
  /** Where the page draws the size guide; null when the product has none. */
  sizeGuideAt: SizeGuidePlace | null;
}

/**
 * The one rule for where the product page shows sizes and the size guide (decision 0057): a
 * product with a guide shows it, whatever its stock, release or draw, with or without sizes (a
 * one-size piece's guide still gives its measurements), and in exactly one place.
 *
 * A product sold by draw lists the draw's sizes (`drawSizesOf`), not its own: a size the draw
 * gives no units of can never be had, and the draw's entry form and panel list only the draw's
 * (decision 0052), so the page says the same wherever it names sizes.
 */
export function productPageSizes(
  product: Pick<PublicProduct, "isComingSoon" | "inventory" | "sizeGuide" | "sizes">,
  draw: Pick<PublicDraw, "sizes"> | null,
): ProductPageSizes {
  const showsSizes = product.isComingSoon || product.inventory === 0;
  const listedSizes = draw ? draw.sizes : product.sizes.map((size) => size.label);
  if (!product.sizeGuide) return { showsSizes, listedSizes, sizeGuideAt: null };
  // Sold by draw and in stock, the size is chosen in the draw's entry form, not in Add To Bag.
  return { showsSizes, listedSizes, sizeGuideAt: showsSizes ? "sizes" : draw ? "draw" : "choices" };
}

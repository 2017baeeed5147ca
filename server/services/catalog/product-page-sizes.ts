import type { PublicProduct } from "#server/contracts/catalog";
import type { SizeGuidePlace } from "#server/contracts/size-guide";

export interface ProductPageSizes {
  /** Sold out or coming soon: the colours and sizes are shown, not chosen. */
  showsSizes: boolean;
  /** Where the page draws the size guide; null when the product has none. */
  sizeGuideAt: SizeGuidePlace | null;
}

/**
 * The one rule for where the product page shows sizes and the size guide (decision 0057): a
 * product with a guide shows it, whatever its stock, release or draw, with or without sizes (a
 * one-size piece's guide still gives its measurements), and in exactly one place.
 */
export function productPageSizes(
  product: Pick<PublicProduct, "isComingSoon" | "inventory" | "sizeGuide">,
  soldByDraw: boolean,
): ProductPageSizes {
  const showsSizes = product.isComingSoon || product.inventory === 0;
  if (!product.sizeGuide) return { showsSizes, sizeGuideAt: null };
  // Sold by draw and in stock, the size is chosen in the draw's entry form, not in Add To Bag.
  return { showsSizes, sizeGuideAt: showsSizes ? "sizes" : soldByDraw ? "draw" : "choices" };
}

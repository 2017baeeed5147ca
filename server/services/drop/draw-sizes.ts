import type { AppContext } from "#server/context";

/**
 * The size labels one may enter a product's draw for, in the product's order; [] for a product
 * without sizes (its one size is ""). The one place draws learn a product's sizes: wire it to the
 * product's sizes once they exist (issue 23).
 */
export async function drawSizesOf(_ctx: AppContext, _productId: number): Promise<string[]> {
  return [];
}

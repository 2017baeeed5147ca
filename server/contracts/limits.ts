/** Issue 12 part 3: one customer may own at most `n` units of a limited product (decision 0020). */
export const limitMessage = (n: number, productName: string) => `Limit ${n} per customer for ${productName}.`;

/** How many units of a line the bag's plus button may reach: the stock, and the limit when there is one. */
export function quantityCap(product: { inventory: number; maxPerCustomer: number | null }): number {
  return product.maxPerCustomer === null ? product.inventory : Math.min(product.inventory, product.maxPerCustomer);
}

/*
 * Sizes and colours (issue 23, decision 0045): shapes, messages and helpers without zod, so the
 * store pages' browser code may use them (decision 0029).
 */

/** One size of a product, in the product's order. With stock per colour, `inventory` is the sum over its colours. */
export interface ProductSize {
  label: string;
  inventory: number;
}

/** Stock of one colour in one size, for a product that keeps stock per colour (`size` null without sizes). */
export interface ProductVariant {
  size: string | null;
  color: string;
  inventory: number;
}

/** What a product without sizes shows and is sold as. */
export const ONE_SIZE = "One Size";

/** "Few sizes left" shows when at most this many sizes remain (and at least one). */
export const FEW_SIZES_LEFT = 2;

export const SIZE_MESSAGES = {
  chooseSize: "Please choose a size.",
  sizeNotAvailable: (size: string, product: string) => `Size ${size} is not available for ${product}.`,
  colorNotAvailable: (color: string, product: string) => `Colour ${color} is not available for ${product}.`,
  sizeSoldOut: (product: string, size: string) => `${product} in size ${size} is sold out.`,
  colorSoldOut: (product: string, color: string) => `${product} in ${color} is sold out.`,
  variantSoldOut: (product: string, color: string, size: string) => `${product} in ${color}, size ${size} is sold out.`,
  onlyLeftOf: (left: number) => `Only ${left} left in this size.`,
  nameTheLine: "Your bag has more than one line of this product: name the one you mean with size and color.",
  label: "Size labels must be 1 to 12 characters",
  labelTaken: (label: string) => `Size ${label} is listed twice`,
  sizeInventory: "Size stock must be a non-negative integer",
  tooMany: "At most 30 sizes",
  inventoryWithSizes: (labels: string[]) => `Inventory is the sum of the sizes (${labels.join(", ")}): change the stock of a size instead.`,
  sizeHeld: (labels: string[]) =>
    `Size ${labels.join(", ")} ${labels.length === 1 ? "is" : "are"} in a checkout right now and cannot be removed. Try again in a few minutes.`,
  sizeMoved: (label: string, was: number, now: number) =>
    `Size ${label} changed from ${was} to ${now} while you were editing (orders and checkouts move it). The form now shows ${now}: enter the new number again and save.`,
  variantMoved: (color: string, size: string | null, was: number, now: number) =>
    `${color}${size === null ? "" : ` in size ${size}`} changed from ${was} to ${now} while you were editing (orders and checkouts move it). The form now shows ${now}: enter the new number again and save.`,
  variantsNeedColors: "Stock per colour needs at least one colour.",
  modeHeld: "This product is in a checkout right now: its stock cannot be reorganised. Try again in a few minutes.",
  variantUnknown: (color: string, size: string | null) =>
    size === null
      ? `Colour ${color} is not one of the product's colours`
      : `Colour ${color} in size ${size} is not one of the product's variants`,
} as const;

/** How a line's choice reads on a bag line, an order, an e-mail or a label: "Size M · Black". */
export function choiceLabel(size: string | null, color: string | null): string {
  return [size === null ? null : `Size ${size}`, color].filter(Boolean).join(" · ");
}

/** The sizes still on sale, for the store grid's "Few sizes left". */
export function sizesLeft(sizes: readonly ProductSize[]): number {
  return sizes.filter((size) => size.inventory > 0).length;
}

/** True when the grid should say "Few sizes left": some sizes sold out and at most two remain. */
export function fewSizesLeft(sizes: readonly ProductSize[]): boolean {
  const left = sizesLeft(sizes);
  return sizes.length > 1 && left > 0 && left <= FEW_SIZES_LEFT && left < sizes.length;
}

/** The stock of one colour in one size: the variant's with stock per colour, else the size's. */
export function stockOfChoice(
  product: { inventory: number; sizes: readonly ProductSize[]; variants?: readonly ProductVariant[] | null },
  size: string | null,
  color: string | null,
): number {
  if (product.variants && color !== null) {
    return product.variants.find((v) => v.size === size && v.color === color)?.inventory ?? 0;
  }
  if (size !== null) return product.sizes.find((s) => s.label === size)?.inventory ?? 0;
  return product.inventory;
}

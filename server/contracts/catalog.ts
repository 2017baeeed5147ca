import { z } from "zod";

/**
 * The storefront's view of products: dollars (not cents), real booleans, and only the fields a
 * shopper may see. Shared by the REST doors, the page loaders and the client components.
 */
export interface PublicProduct {
  id: number;
  name: string;
  description: string;
  /** Dollars, two-decimal precision (45, 36.8). */
  price: number;
  /** price × (1 − discountPercent/100), rounded to the cent once. Equals price without a discount. */
  discountedPrice: number;
  discountPercent: number;
  imageUrl: string | null;
  imagePath: string | null;
  /** `srcset` for the WebP widths of imagePath, or null when the image is not one of ours. */
  srcSet: string | null;
  inventory: number;
  isVisible: boolean;
  promoCode: string | null;
  availableColors: string[];
  isComingSoon: boolean;
  releaseDate: string | null;
  /** Units one customer may buy (decision 0020); null: no limit. */
  maxPerCustomer: number | null;
}

export interface PublicProductImage {
  id: number;
  productId: number;
  imageUrl: string | null;
  imagePath: string | null;
  srcSet: string | null;
  isPrimary: boolean;
  displayOrder: number;
}

/** GET /api/products/{id}/images. */
export interface ProductImagesResponse {
  productId: number;
  images: PublicProductImage[];
}

export const CATALOG_MESSAGES = {
  notFound: "Product not found.",
  loadFailed: "Sorry, we couldn't load the products. Please try again later.",
} as const;

/** A product id in a URL: anything but a positive integer names no product (404, not 400). */
export const productIdParam = z.coerce
  .number({ error: CATALOG_MESSAGES.notFound })
  .int(CATALOG_MESSAGES.notFound)
  .positive(CATALOG_MESSAGES.notFound)
  .max(Number.MAX_SAFE_INTEGER, CATALOG_MESSAGES.notFound);

/** Spec §3 preset swatches. Any other colour name is drawn in NEUTRAL_SWATCH. */
export const COLOR_SWATCHES: Readonly<Record<string, string>> = {
  Black: "#1a1a1a",
  White: "#f4f4f2",
  Gray: "#8a8a8a",
  Navy: "#1f2a44",
  Brown: "#6b4a32",
  Beige: "#d9c7a7",
  Red: "#b3261e",
  Blue: "#2f5fa7",
  Green: "#3f5f3a",
};
export const NEUTRAL_SWATCH = "#9e9e9e";

export function swatchFor(color: string): string {
  // Object.hasOwn: a colour called "constructor" must not find Object.prototype's.
  return Object.hasOwn(COLOR_SWATCHES, color) ? COLOR_SWATCHES[color]! : NEUTRAL_SWATCH;
}

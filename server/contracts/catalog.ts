import { z } from "zod";
import { CATALOG_MESSAGES } from "./catalog-view";
import type { ProductSize, ProductVariant } from "./sizes-view";
import { MAX_ROW_ID } from "./row-id";

export * from "./catalog-view";

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
  /** The sizes in order, each with its stock (`[]`: no sizes, one implicit "One Size"; decision 0045). */
  sizes: ProductSize[];
  /** Only for a product that keeps stock per colour and size: one entry per colour and size. */
  variants?: ProductVariant[];
  /**
   * The size guide its admin wrote (plain text, at most 4,000 characters; `sizeGuideView` in
   * ./size-guide reads it), or null. Shown whether the product is on sale, sold out or coming soon.
   */
  sizeGuide: string | null;
}

/**
 * What a card in the store grid shows, and all the grid's loader sends: every product's
 * description and size guide (up to 4,000 characters each) went into /store's HTML, read by nothing
 * on it. GET /api/products still answers the whole PublicProduct.
 */
export type GridProduct = Pick<
  PublicProduct,
  | "id"
  | "name"
  | "price"
  | "discountedPrice"
  | "discountPercent"
  | "imageUrl"
  | "imagePath"
  | "srcSet"
  | "inventory"
  | "isComingSoon"
  | "releaseDate"
  | "sizes"
>;

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

/** A product id in a URL: anything but a row id names no product (404, not 400). */
export const productIdParam = z.coerce
  .number({ error: CATALOG_MESSAGES.notFound })
  .int(CATALOG_MESSAGES.notFound)
  .positive(CATALOG_MESSAGES.notFound)
  .max(MAX_ROW_ID, CATALOG_MESSAGES.notFound);

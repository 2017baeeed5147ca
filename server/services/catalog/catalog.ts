import type { Product } from "#db/schema";
import { compiledOnce } from "#db/compiled-query";
import { centsAfterPercentOff, toDollars } from "#server/contracts/money";
import {
  CATALOG_MESSAGES,
  type GridProduct,
  type ProductImagesResponse,
  type PublicProduct,
  type PublicProductImage,
} from "#server/contracts/catalog";
import type { AppContext } from "#server/context";
import { NotFound } from "#server/errors";
import { getEarlyMinutes } from "#server/services/drop/early-access";
import { inDisplayOrder } from "./image-order";
import { variantUrls } from "./image-variants";
import { getSettingValue } from "#server/services/store/settings";
import { colorsOf, NO_STOCK, stockOf, stockOfOne, type ProductStock } from "./product-stock";

/** Price after the discount, in cents, rounded once (docs/spec.md §9). */
export function discountedCents(priceCents: number, discountPercent: number): number {
  return centsAfterPercentOff(priceCents, discountPercent);
}

/**
 * A `srcset` for one of our WebP images. None when the path is not ours, or when imageUrl points
 * somewhere else (an admin-set external link wins over a stale upload).
 */
export function srcSetFor(image: { imageUrl: string | null; imagePath: string | null }): string | null {
  const { imageUrl, imagePath } = image;
  if (!imagePath || !/^products\/[a-z0-9][a-z0-9_-]*$/i.test(imagePath)) return null;
  const variants = variantUrls(imagePath);
  if (imageUrl && !variants.some(({ url }) => url === imageUrl)) return null;
  return variants.map(({ url, width }) => `${url} ${width}w`).join(", ");
}

/**
 * The one place a product row becomes what shoppers see: cents to dollars, flags to booleans, its
 * sizes (and, with stock per colour, its variants) from `stockOf`, and its size guide: the same on
 * the product page (whatever its stock or release) and in the REST answers.
 */
export function toPublicProduct(row: Product, stock: ProductStock = NO_STOCK): PublicProduct {
  const product: PublicProduct = {
    id: row.id,
    name: row.name,
    description: row.description,
    price: toDollars(row.priceCents),
    discountedPrice: toDollars(discountedCents(row.priceCents, row.discountPercent)),
    discountPercent: row.discountPercent,
    imageUrl: row.imageUrl,
    imagePath: row.imagePath,
    srcSet: srcSetFor(row),
    inventory: row.inventory,
    isVisible: row.isVisible === 1,
    promoCode: row.promoCode,
    availableColors: colorsOf(row.availableColors),
    isComingSoon: row.isComingSoon === 1,
    releaseDate: row.releaseDate,
    maxPerCustomer: row.maxPerCustomer,
    sizes: stock.sizes.map((size) => ({ ...size })),
    sizeGuide: row.sizeGuide,
  };
  if (stock.variants) product.variants = stock.variants.map((variant) => ({ ...variant }));
  return product;
}

/** Rows as shoppers see them, each with its sizes: two queries for any number of products. */
export async function toPublicProducts(ctx: AppContext, rows: Product[]): Promise<PublicProduct[]> {
  const stock = await stockOf(ctx.db, rows);
  return rows.map((row) => toPublicProduct(row, stock.get(row.id)));
}

type Availability = Pick<Product, "isVisible" | "isCountdownRestricted" | "countdownReleaseDate">;

/**
 * Decides whether shoppers may know a product exists at all (docs/decisions/0004): it must be
 * visible, and a countdown-restricted one must have reached its release instant. A restricted
 * product without a date of its own follows the store's launch countdown.
 */
export async function publicFilter(ctx: AppContext): Promise<(row: Availability) => boolean> {
  // An early-access pass (decision 0020) moves a release forward by earlyMinutes, for the drops
  // whose window it was claimed in: a pass from one drop opens nothing of the next.
  const early = ctx.earlyAccess ? { claimed: ctx.earlyAccess.openedAt, ms: (await getEarlyMinutes(ctx)) * 60_000 } : null;
  return publicAt(ctx.clock.now().getTime(), await getSettingValue(ctx, "countdown_date"), early);
}

/** `publicFilter` at a given instant, store launch date (the setting's text) and pass, without a query. */
export function publicAt(
  now: number,
  countdownDate: string,
  early: { claimed: number; ms: number } | null = null,
): (row: Availability) => boolean {
  const storeLaunch = Date.parse(countdownDate);
  return (row) => {
    if (row.isVisible !== 1) return false;
    if (row.isCountdownRestricted !== 1) return true;
    const release = row.countdownReleaseDate ? Date.parse(row.countdownReleaseDate) : storeLaunch;
    // An unreadable date keeps the product back: failing closed never leaks a drop early.
    if (!Number.isFinite(release)) return false;
    return release <= now || (early !== null && release - early.ms <= early.claimed);
  };
}

/** Visible, released products, newest first: the store grid and GET /api/products. */
export async function listVisibleProducts(ctx: AppContext): Promise<PublicProduct[]> {
  const isPublic = await publicFilter(ctx);
  const rows = await ctx.db
    .selectFrom("products")
    .selectAll()
    .where("isVisible", "=", 1)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .execute();
  return toPublicProducts(ctx, rows.filter(isPublic));
}

/** The store grid's cards: the visible products, each cut to what its card shows. */
export async function listGridProducts(ctx: AppContext): Promise<GridProduct[]> {
  return (await listVisibleProducts(ctx)).map((product) => ({
    id: product.id,
    name: product.name,
    price: product.price,
    discountedPrice: product.discountedPrice,
    discountPercent: product.discountPercent,
    imageUrl: product.imageUrl,
    imagePath: product.imagePath,
    srcSet: product.srcSet,
    inventory: product.inventory,
    isComingSoon: product.isComingSoon,
    releaseDate: product.releaseDate,
    sizes: product.sizes,
  }));
}

const productRow = compiledOnce((db, $: { id: number }) => db.selectFrom("products").selectAll().where("id", "=", $.id));

/** The raw row of a product shoppers may see; NotFound for unknown, hidden or unreleased ones alike. */
export async function getPublicProductRow(ctx: AppContext, productId: number): Promise<Product> {
  const row = await productRow.first(ctx.db, { id: productId });
  const isPublic = await publicFilter(ctx);
  if (!row || !isPublic(row)) throw new NotFound(CATALOG_MESSAGES.notFound);
  return row;
}

export async function getPublicProduct(ctx: AppContext, productId: number): Promise<PublicProduct> {
  const row = await getPublicProductRow(ctx, productId);
  return toPublicProduct(row, await stockOfOne(ctx.db, row));
}

/** A product's pictures in display order (primary first among equals). */
export async function listProductImages(ctx: AppContext, productId: number): Promise<ProductImagesResponse> {
  await getPublicProductRow(ctx, productId);
  const rows = await ctx.db
    .selectFrom("productImages")
    .select(["id", "productId", "imageUrl", "imagePath", "isPrimary", "displayOrder"])
    .where("productId", "=", productId)
    .$call(inDisplayOrder)
    .execute();
  return { productId, images: rows.map(toPublicImage) };
}

/** An image row as the storefront (and, with its date, the admin) sees it. */
export function toPublicImage(row: {
  id: number;
  productId: number;
  imageUrl: string | null;
  imagePath: string | null;
  isPrimary: 0 | 1;
  displayOrder: number;
}): PublicProductImage {
  return {
    id: row.id,
    productId: row.productId,
    imageUrl: row.imageUrl,
    imagePath: row.imagePath,
    srcSet: srcSetFor(row),
    isPrimary: row.isPrimary === 1,
    displayOrder: row.displayOrder,
  };
}

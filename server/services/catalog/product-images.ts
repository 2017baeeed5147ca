import crypto from "node:crypto";
import { sql } from "kysely";
import {
  IMAGE_MESSAGES,
  MAX_IMAGES_PER_PRODUCT,
  PRODUCT_MESSAGES,
  type AdminProductImage,
  type AdminProductImagesResponse,
  type ImagePatch,
  type UploadedProductImage,
} from "#server/contracts/admin-products";
import { forUpdateOnPostgres } from "#db/engine";
import type { AppContext } from "#server/context";
import { DomainError, Invalid, NotFound } from "#server/errors";
import { toPublicImage } from "./catalog";
import { inDisplayOrder } from "./image-order";
import { checkImage, ImageRejected } from "./image-upload-check";
import { deleteWebpVariants, writeWebpVariants } from "./image-variants";
import { imageBasesOf, removeUnreferencedImages } from "./product-image-files";

/*
 * A product's pictures in the database: adding, listing, ordering, the one primary and deleting.
 * The checks an upload passes are in image-upload-check.ts; the files go in product-image-files.ts.
 */

/** Checks, then writes the WebP widths (metadata stripped) under a fresh random key. */
async function storeImage(ctx: AppContext, bytes: Uint8Array, prefix: string): Promise<{ imageUrl: string; imagePath: string }> {
  await checkImage(bytes);
  const key = `${prefix}-${crypto.randomUUID().replaceAll("-", "")}`;
  try {
    return await writeWebpVariants(ctx, Buffer.from(bytes), key);
  } catch (error) {
    // A header that reads but pixels that do not (a truncated file): nothing half-written stays.
    await deleteWebpVariants(ctx, `products/${key}`);
    if (error instanceof DomainError) throw error;
    throw new ImageRejected(IMAGE_MESSAGES.badType, 415);
  }
}

type ImageRow = {
  id: number;
  productId: number;
  imageUrl: string | null;
  imagePath: string | null;
  isPrimary: 0 | 1;
  displayOrder: number;
  createdAt: string;
};

function toAdminImage(row: ImageRow): AdminProductImage {
  return { ...toPublicImage(row), createdAt: row.createdAt };
}

const IMAGE_COLUMNS = ["id", "productId", "imageUrl", "imagePath", "isPrimary", "displayOrder", "createdAt"] as const;

async function imageRow(ctx: AppContext, imageId: number): Promise<ImageRow> {
  const row = await ctx.db.selectFrom("productImages").select(IMAGE_COLUMNS).where("id", "=", imageId).executeTakeFirst();
  if (!row) throw new NotFound(IMAGE_MESSAGES.notFound);
  return row;
}

/**
 * In a transaction that changes a product's images: the product row, locked on PostgreSQL until
 * the commit, so those transactions for one product run one after another as on SQLite. Without
 * it, READ COMMITTED lets a switch of the primary miss an image another transaction is adding
 * (two primaries), or two uploads both count below the limit.
 */
async function lockProduct(tx: AppContext, productId: number): Promise<void> {
  const product = await forUpdateOnPostgres(
    tx.db,
    tx.db.selectFrom("products").select("id").where("id", "=", productId),
  ).executeTakeFirst();
  if (!product) throw new NotFound(PRODUCT_MESSAGES.notFound);
}

/** The image row as it is once its product is locked (the first read only names the product). */
async function lockedImageRow(tx: AppContext, imageId: number): Promise<ImageRow> {
  await lockProduct(tx, (await imageRow(tx, imageId)).productId);
  return imageRow(tx, imageId);
}

async function assertProduct(ctx: AppContext, productId: number): Promise<void> {
  const product = await ctx.db.selectFrom("products").select("id").where("id", "=", productId).executeTakeFirst();
  if (!product) throw new NotFound(PRODUCT_MESSAGES.notFound);
}

/** A product's pictures in display order (primary first among equals), hidden products too. */
export async function listAdminImages(ctx: AppContext, productId: number): Promise<AdminProductImagesResponse> {
  await assertProduct(ctx, productId);
  const rows = await ctx.db
    .selectFrom("productImages")
    .select(IMAGE_COLUMNS)
    .where("productId", "=", productId)
    .$call(inDisplayOrder)
    .execute();
  return { productId, images: rows.map(toAdminImage) };
}

/**
 * Makes one image the product's only primary, in one statement (never zero or two), and copies
 * its picture onto the product: products.imageUrl/imagePath are what the storefront shows.
 * Returns the bases the product pointed at before, for the caller to collect after its commit.
 */
async function makePrimary(ctx: AppContext, image: ImageRow): Promise<string[]> {
  await ctx.db
    .updateTable("productImages")
    .set({ isPrimary: sql<0 | 1>`CASE WHEN id = ${image.id} THEN 1 ELSE 0 END` })
    .where("productId", "=", image.productId)
    .execute();
  return syncProductPicture(ctx, image.productId, image);
}

async function syncProductPicture(
  ctx: AppContext,
  productId: number,
  picture: { imageUrl: string | null; imagePath: string | null },
): Promise<string[]> {
  const before = await ctx.db.selectFrom("products").select(["imageUrl", "imagePath"]).where("id", "=", productId).executeTakeFirst();
  await ctx.db
    .updateTable("products")
    .set({ imageUrl: picture.imageUrl, imagePath: picture.imagePath, updatedAt: ctx.clock.now().toISOString() })
    .where("id", "=", productId)
    .execute();
  return before ? imageBasesOf(before) : [];
}

/**
 * Adds a picture to a product. The first one becomes primary; `isPrimary` makes a later one primary.
 * Encoding happens before the transaction (slow work must not hold SQLite's write lock); if the
 * product vanished meanwhile, the new files are removed again.
 */
export async function addProductImage(
  ctx: AppContext,
  productId: number,
  bytes: Uint8Array,
  options: { isPrimary?: boolean; displayOrder?: number } = {},
): Promise<AdminProductImage> {
  await assertProduct(ctx, productId);
  const stored = await storeImage(ctx, bytes, `p${productId}`);
  let stale: string[] = [];
  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const tx: AppContext = { ...ctx, db: trx };
      await lockProduct(tx, productId);
      const existing = await trx
        .selectFrom("productImages")
        .select(["isPrimary", "displayOrder"])
        .where("productId", "=", productId)
        .execute();
      if (existing.length >= MAX_IMAGES_PER_PRODUCT) throw new Invalid(IMAGE_MESSAGES.tooMany);
      const displayOrder = options.displayOrder ?? Math.max(-1, ...existing.map((i) => i.displayOrder)) + 1;
      const row = await trx
        .insertInto("productImages")
        .values({ productId, ...stored, isPrimary: 0, displayOrder, createdAt: ctx.clock.now().toISOString() })
        .returning(IMAGE_COLUMNS)
        .executeTakeFirstOrThrow();
      if (options.isPrimary || !existing.some((i) => i.isPrimary === 1)) stale = await makePrimary(tx, row);
      return row.id;
    });
  } catch (error) {
    // Nothing points at the new files: they go with the failed write.
    await deleteWebpVariants(ctx, stored.imagePath);
    throw error;
  }
  await removeUnreferencedImages(ctx, stale);
  return toAdminImage(await imageRow(ctx, id));
}

/** Sets primary (only ever to true: a product keeps exactly one) and/or the display order. */
export async function updateProductImage(ctx: AppContext, imageId: number, patch: ImagePatch): Promise<AdminProductImage> {
  let stale: string[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    const tx: AppContext = { ...ctx, db: trx };
    const image = await lockedImageRow(tx, imageId);
    if (patch.isPrimary === false && image.isPrimary === 1)
      throw new Invalid(IMAGE_MESSAGES.keepOnePrimary, { isPrimary: [IMAGE_MESSAGES.keepOnePrimary] });
    if (patch.displayOrder !== undefined) {
      await trx.updateTable("productImages").set({ displayOrder: patch.displayOrder }).where("id", "=", imageId).execute();
    }
    if (patch.isPrimary && image.isPrimary === 0) stale = await makePrimary(tx, image);
  });
  await removeUnreferencedImages(ctx, stale);
  return toAdminImage(await imageRow(ctx, imageId));
}

export function setPrimaryImage(ctx: AppContext, imageId: number): Promise<AdminProductImage> {
  return updateProductImage(ctx, imageId, { isPrimary: true });
}

/** Puts a product's images in the given order (every image exactly once). */
export async function reorderImages(ctx: AppContext, productId: number, imageIds: number[]): Promise<AdminProductImagesResponse> {
  await ctx.db.transaction().execute(async (trx) => {
    await lockProduct({ ...ctx, db: trx }, productId);
    const current = await trx.selectFrom("productImages").select("id").where("productId", "=", productId).execute();
    const known = new Set(current.map((r) => r.id));
    if (imageIds.length !== known.size || new Set(imageIds).size !== imageIds.length || !imageIds.every((id) => known.has(id))) {
      throw new Invalid(IMAGE_MESSAGES.badOrder, { imageIds: [IMAGE_MESSAGES.badOrder] });
    }
    for (const [displayOrder, id] of imageIds.entries()) {
      await trx.updateTable("productImages").set({ displayOrder }).where("id", "=", id).execute();
    }
  });
  return listAdminImages(ctx, productId);
}

/**
 * Deletes one image. If it was primary, the next by display order takes over (and the product's
 * picture with it); the last image leaves the product without one. Files go after the commit.
 */
export async function deleteProductImage(ctx: AppContext, imageId: number): Promise<{ id: number; productId: number }> {
  let stale: string[] = [];
  const image = await ctx.db.transaction().execute(async (trx) => {
    const tx: AppContext = { ...ctx, db: trx };
    const row = await lockedImageRow(tx, imageId);
    await trx.deleteFrom("productImages").where("id", "=", imageId).execute();
    stale = imageBasesOf(row);
    if (row.isPrimary === 1) {
      const next = await trx
        .selectFrom("productImages")
        .select(IMAGE_COLUMNS)
        .where("productId", "=", row.productId)
        .orderBy("displayOrder", "asc")
        .orderBy("id", "asc")
        .executeTakeFirst();
      const product = await trx
        .selectFrom("products")
        .select(["imageUrl", "imagePath"])
        .where("id", "=", row.productId)
        .executeTakeFirstOrThrow();
      const showedIt = imageBasesOf(product).some((base) => stale.includes(base));
      // The product showed this picture: it now shows the next one, or none.
      if (next) stale.push(...(await makePrimary(tx, next)));
      else if (showedIt) stale.push(...(await syncProductPicture(tx, row.productId, { imageUrl: null, imagePath: null })));
    }
    return row;
  });
  await removeUnreferencedImages(ctx, stale);
  return { id: image.id, productId: image.productId };
}

/**
 * POST /api/admin/upload-product-image: a picture for the product form's own imageUrl, not tied
 * to a product yet. Every upload is a new URL, so whatever imagePath the form holds is stale.
 */
export async function uploadProductImage(ctx: AppContext, bytes: Uint8Array): Promise<Required<UploadedProductImage>> {
  const { imageUrl } = await storeImage(ctx, bytes, "u");
  return { imageUrl, clearImagePath: true };
}

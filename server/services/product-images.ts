import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import {
  IMAGE_MESSAGES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_PRODUCT,
  PRODUCT_MESSAGES,
  type AdminProductImage,
  type AdminProductImagesResponse,
  type ImagePatch,
  type UploadedProductImage,
} from "../contracts/admin-products";
import { forUpdateOnPostgres } from "../../db/engine";
import type { AppContext } from "../context";
import { DomainError, Invalid, NotFound } from "../errors";
import { toPublicImage } from "./catalog";
import { inDisplayOrder } from "./image-order";
import { deleteWebpVariants, variantUrls, writeWebpVariants } from "./image-variants";

/**
 * A refused upload. An `Invalid` (400 for doors that know no better); the upload doors answer
 * with `status`: 413 too large, 415 not a JPG, PNG or GIF.
 */
export class ImageRejected extends Invalid {
  constructor(
    message: string,
    readonly status: 413 | 415,
  ) {
    super(message, { image: [message] });
  }
}

const MAX_PIXELS = 40_000_000;
const OWN_URL = /^\/uploads\/(products\/[a-z0-9][a-z0-9_-]{0,100})-(?:400|800|1200)\.webp$/i;
const OWN_PATH = /^products\/[a-z0-9][a-z0-9_-]{0,100}$/i;

/** "/uploads/products/k-800.webp" → "products/k"; anything not ours → null. */
export function ownImagePathOf(url: string): string | null {
  return OWN_URL.exec(url)?.[1] ?? null;
}

/** The variant bases a product or image row points at (by path, or by one of our URLs). */
export function imageBasesOf(row: { imageUrl: string | null; imagePath: string | null }): string[] {
  const bases = new Set<string>();
  if (row.imagePath && OWN_PATH.test(row.imagePath)) bases.add(row.imagePath);
  const fromUrl = row.imageUrl ? ownImagePathOf(row.imageUrl) : null;
  if (fromUrl) bases.add(fromUrl);
  return [...bases];
}

/** Deletes the files of every base nothing points at any more (a product or an image row). */
export async function removeUnreferencedImages(ctx: AppContext, bases: string[]): Promise<string[]> {
  const removed: string[] = [];
  for (const base of new Set(bases)) {
    const urls = variantUrls(base).map(({ url }) => url);
    const image = await ctx.db
      .selectFrom("productImages")
      .select("id")
      .where((eb) => eb.or([eb("imagePath", "=", base), eb("imageUrl", "in", urls)]))
      .executeTakeFirst();
    const product = await ctx.db
      .selectFrom("products")
      .select("id")
      .where((eb) => eb.or([eb("imagePath", "=", base), eb("imageUrl", "in", urls)]))
      .executeTakeFirst();
    if (!image && !product) {
      await deleteWebpVariants(ctx, base);
      removed.push(base);
    }
  }
  return removed;
}

/** A picture uploaded from the product form waits this long for the product to be saved. */
export const ABANDONED_IMAGE_GRACE_MS = 60 * 60_000;

/**
 * Pictures nothing points at (uploaded from a product form that was never saved, or left behind
 * by a failed write) are deleted once they are older than the grace period. Run by the sweeper.
 * Returns the variant bases removed.
 */
export async function removeAbandonedImages(ctx: AppContext): Promise<string[]> {
  const dir = path.join(ctx.config.uploadsDir, "products");
  const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
  const cutoff = ctx.clock.now().getTime() - ABANDONED_IMAGE_GRACE_MS;
  const newest = new Map<string, number>();
  for (const name of names) {
    const base = /^([a-z0-9][a-z0-9_-]{0,100})-(?:400|800|1200)\.webp$/i.exec(name)?.[1];
    if (!base) continue;
    const stat = await fs.promises.stat(path.join(dir, name)).catch(() => null);
    if (stat) newest.set(`products/${base}`, Math.max(newest.get(`products/${base}`) ?? 0, stat.mtimeMs));
  }
  return removeUnreferencedImages(
    ctx,
    [...newest].filter(([, mtime]) => mtime <= cutoff).map(([base]) => base),
  );
}

/**
 * Checks an upload by its content, never its name or declared type: at most 5 MB, a JPG, PNG or GIF
 * that sharp can read, nothing hidden before or after the picture (see the content checks at the
 * end of this file), and not a decompression bomb.
 */
export async function checkImage(bytes: Uint8Array): Promise<void> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageRejected(IMAGE_MESSAGES.tooLarge, 413);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw new ImageRejected(IMAGE_MESSAGES.badType, 415);
  }
  const format = meta.format;
  if (format !== "jpeg" && format !== "png" && format !== "gif") throw new ImageRejected(IMAGE_MESSAGES.badType, 415);
  if (imageFormatProblem(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), format)) {
    throw new ImageRejected(IMAGE_MESSAGES.badType, 415);
  }
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PIXELS) throw new ImageRejected(IMAGE_MESSAGES.tooManyPixels, 413);
}

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

/** The bytes of a multipart `image` field; anything else is "No File Selected". */
export async function imageBytesOf(entry: FormDataEntryValue | null): Promise<Uint8Array> {
  if (!entry || typeof entry === "string" || entry.size === 0) {
    throw new Invalid(IMAGE_MESSAGES.noFile, { image: [IMAGE_MESSAGES.noFileDescription] });
  }
  if (entry.size > MAX_IMAGE_BYTES) throw new ImageRejected(IMAGE_MESSAGES.tooLarge, 413);
  return new Uint8Array(await entry.arrayBuffer());
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

/* ----------------------------------------------------------------------------------------- */
/* Content checks. sharp reads a picture from its header; a polyglot is a picture with         */
/* something else inside or after it (an archive, a page, a script). Re-encoding drops such    */
/* payloads anyway; refusing them as well means no such file is ever accepted.                 */
/* ----------------------------------------------------------------------------------------- */

const MAGIC: Record<"jpeg" | "png" | "gif", Buffer[]> = {
  jpeg: [Buffer.from([0xff, 0xd8, 0xff])],
  png: [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  gif: [Buffer.from("GIF87a", "latin1"), Buffer.from("GIF89a", "latin1")],
};
// Long enough not to turn up by chance in compressed pixels.
const MARKUP = ["<script", "<html", "<?php", "<iframe", "<!doctype", "<body", "javascript:"];

/** PNG: chunks up to and including IEND. */
function pngEnd(b: Buffer): number | null {
  for (let i = 8; i + 12 <= b.length;) {
    const next = i + 12 + b.readUInt32BE(i);
    if (next > b.length) return null;
    if (b.toString("latin1", i + 4, i + 8) === "IEND") return next;
    i = next;
  }
  return null;
}

/** GIF: header, colour tables and blocks up to the 0x3B trailer. */
function gifEnd(b: Buffer): number | null {
  const table = (flags: number) => (flags & 0x80 ? 3 * (1 << ((flags & 7) + 1)) : 0);
  let i = 13 + table(b[10] ?? 0);
  const skipSubBlocks = () => {
    while (i < b.length) {
      const size = b[i]!;
      i += 1 + size;
      if (size === 0) return true;
    }
    return false;
  };
  while (i < b.length) {
    const id = b[i];
    if (id === 0x3b) return i + 1;
    if (id === 0x21) i += 2;
    else if (id === 0x2c) i += 10 + table(b[i + 9] ?? 0) + 1;
    else return null;
    if (!skipSubBlocks()) return null;
  }
  return null;
}

/** JPEG: marker segments, entropy-coded scans, up to EOI (FFD9). */
function jpegEnd(b: Buffer): number | null {
  let i = 2;
  while (i < b.length) {
    if (b[i] !== 0xff) return null;
    while (b[i] === 0xff) i++;
    const marker = b[i++];
    if (marker === undefined) return null;
    if (marker === 0xd9) return i;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue;
    if (i + 2 > b.length) return null;
    i += b.readUInt16BE(i);
    if (marker !== 0xda) continue;
    // Scan data: 0xFF is only followed by a stuffed 0x00 or a restart marker until the next segment.
    while (i < b.length && !(b[i] === 0xff && b[i + 1] !== 0x00 && !(b[i + 1]! >= 0xd0 && b[i + 1]! <= 0xd7))) i++;
  }
  return null;
}

/**
 * Phones write more than one picture into a JPEG: further JPEGs after the first (Multi-Picture
 * Format: HDR gain maps, depth maps, on iPhone and Pixel) or a short video (Motion Photos, an MP4
 * whose first box is "ftyp"). Only the first picture is ever decoded and re-encoded, and the
 * upload itself is never served, so these are accepted rather than turning away a phone's photo.
 */
function phoneJpegTrailer(rest: Buffer): boolean {
  // A box starts with its 4-byte size, so its own leading zeros are not padding.
  const isoMediaVideo = rest.length >= 8 && rest.toString("latin1", 4, 8) === "ftyp";
  const tail = rest.subarray(rest.findIndex((byte) => byte !== 0));
  const anotherJpeg = tail[0] === 0xff && tail[1] === 0xd8 && tail[2] === 0xff;
  return anotherJpeg || isoMediaVideo;
}

/** Why these bytes are not a plain picture of `format`, or null when they are. */
export function imageFormatProblem(b: Buffer, format: "jpeg" | "png" | "gif"): string | null {
  if (!MAGIC[format].some((magic) => b.subarray(0, magic.length).equals(magic))) return "signature";
  const end = format === "png" ? pngEnd(b) : format === "gif" ? gifEnd(b) : jpegEnd(b);
  if (end === null) return "structure";
  // Zero padding after the end is harmless; anything else is a second file riding along, except
  // what phones add to their JPEGs (see phoneJpegTrailer).
  const rest = b.subarray(end);
  if (rest.some((byte) => byte !== 0) && !(format === "jpeg" && phoneJpegTrailer(rest))) return "trailing data";
  const text = b.toString("latin1").toLowerCase();
  if (MARKUP.some((token) => text.includes(token))) return "markup";
  return null;
}

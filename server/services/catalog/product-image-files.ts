import fs from "node:fs";
import path from "node:path";
import type { AppContext } from "#server/context";
import { deleteWebpVariants, variantUrls } from "./image-variants";

/*
 * The files behind product pictures: which variant bases a row points at, and removing those
 * nothing points at any more. Files go only after the write that dropped them has committed.
 */

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

import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";

/** Widths written for every product image; the storefront builds its srcset from them. */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;
const DEFAULT_WIDTH = 800;
const WEBP_QUALITY = 80;
// Keys become file names: nothing that could climb out of the uploads directory.
const SAFE_KEY = /^[a-z0-9][a-z0-9_-]{0,100}$/i;

const variantFile = (imagePath: string, width: number) => `${imagePath}-${width}.webp`;

/**
 * Re-encodes an image into WebP at each width under `uploads/products/`. Re-encoding drops the
 * original bytes (and with them EXIF such as GPS: sharp keeps no metadata unless asked), and
 * `rotate()` first bakes the EXIF orientation into the pixels.
 * Returns the variant base (relative to uploads) and the URL of the default width.
 */
export async function writeWebpVariants(ctx: AppContext, input: Buffer, key: string): Promise<{ imageUrl: string; imagePath: string }> {
  if (!SAFE_KEY.test(key)) throw new Invalid("Invalid image key.");
  try {
    await sharp(input).metadata();
  } catch {
    throw new Invalid("That file is not an image we can read.", { image: ["Upload a JPG, PNG or GIF image."] });
  }
  const imagePath = `products/${key}`;
  await fs.mkdir(path.join(ctx.config.uploadsDir, "products"), { recursive: true });
  const source = sharp(input).rotate();
  await Promise.all(
    IMAGE_WIDTHS.map((width) =>
      source
        .clone()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: WEBP_QUALITY })
        .toFile(path.join(ctx.config.uploadsDir, variantFile(imagePath, width))),
    ),
  );
  return { imagePath, imageUrl: `/uploads/${variantFile(imagePath, DEFAULT_WIDTH)}` };
}

/** The URL of each width, for `srcset`. */
export function variantUrls(imagePath: string): { width: number; url: string }[] {
  return IMAGE_WIDTHS.map((width) => ({ width, url: `/uploads/${variantFile(imagePath, width)}` }));
}

/** Removes every width of one image; missing files are fine (already gone is the goal). */
export async function deleteWebpVariants(ctx: AppContext, imagePath: string): Promise<void> {
  if (!/^products\/[a-z0-9][a-z0-9_-]{0,100}$/i.test(imagePath)) return;
  await Promise.all(IMAGE_WIDTHS.map((width) => fs.rm(path.join(ctx.config.uploadsDir, variantFile(imagePath, width)), { force: true })));
}

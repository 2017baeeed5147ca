import sharp from "sharp";
import { IMAGE_MESSAGES, MAX_IMAGE_BYTES } from "#server/contracts/admin-products";
import { Invalid } from "#server/errors";
import { imageFormatProblem } from "./image-polyglot";

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

// Checked from the header, before anything is decoded: a small file can claim huge pixels.
const MAX_PIXELS = 40_000_000;

/**
 * Checks an upload by its content, never its name or declared type: at most 5 MB, a JPG, PNG or GIF
 * that sharp can read, nothing hidden before or after the picture (image-polyglot.ts), and not a
 * decompression bomb.
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

/** The bytes of a multipart `image` field; anything else is "No File Selected". */
export async function imageBytesOf(entry: FormDataEntryValue | null): Promise<Uint8Array> {
  if (!entry || typeof entry === "string" || entry.size === 0) {
    throw new Invalid(IMAGE_MESSAGES.noFile, { image: [IMAGE_MESSAGES.noFileDescription] });
  }
  if (entry.size > MAX_IMAGE_BYTES) throw new ImageRejected(IMAGE_MESSAGES.tooLarge, 413);
  return new Uint8Array(await entry.arrayBuffer());
}

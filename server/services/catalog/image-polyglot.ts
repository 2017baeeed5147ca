/*
 * Polyglot checks: a polyglot is a picture with something else inside or after it (an archive,
 * a page, a script). sharp's metadata gives the format and the size from the header but not
 * where the picture ends, and sharp decodes such a file as the picture alone; so these walk each
 * format's structure to its end. Re-encoding drops the payload anyway; refusing it as well means
 * no such file is ever accepted.
 */

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

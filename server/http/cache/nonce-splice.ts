import crypto from "node:crypto";
import zlib from "node:zlib";

/**
 * A fresh CSP nonce in every answer of a page rendered once and sent many times (decision 0028).
 * Shared copies (the page cache's filled pages, the render memo's) are rendered with a stand-in
 * nonce; each answer writes its own nonce over the stand-ins. The gzip copy is kept as deflate
 * segments cut at the stand-ins, so an answer costs a few small copies and a CRC combination, not
 * a compression: the nonce goes between the segments as a stored (uncompressed) block.
 */

/** 18 random bytes: 24 base64 characters, no padding; every nonce, stand-in included, is this long. */
export const NONCE_LENGTH = 24;
// Random bytes drawn in batches: one system call per 4096 nonces rather than one each.
let pool = Buffer.alloc(0);
let drawn = 0;
export function freshNonce(): string {
  if (drawn + 18 > pool.length) {
    pool = crypto.randomBytes(18 * 4096);
    drawn = 0;
  }
  drawn += 18;
  return pool.toString("base64", drawn - 18, drawn);
}

/**
 * Rendered in place of the nonce into copies shared between answers. Random per process, so no page
 * (an admin's text, say) can carry it by design.
 */
export const NONCE_STANDIN = freshNonce();
const STANDIN_BYTES = Buffer.from(NONCE_STANDIN, "latin1");

// Answers are carved from 1 MB slabs, each part written once and handed to the socket: one
// ArrayBuffer per ~100 answers rather than one each, which the garbage collector feels on drop day.
const SLAB = 1024 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB);
let slabUsed = 0;
export function answerBuffer(length: number): Buffer {
  if (length > SLAB / 8) return Buffer.allocUnsafe(length);
  if (slabUsed + length > SLAB) {
    slab = Buffer.allocUnsafeSlow(SLAB);
    slabUsed = 0;
  }
  slabUsed += length;
  return slab.subarray(slabUsed - length, slabUsed);
}

export interface NonceCopy {
  /** The page with stand-ins. */
  identity: Buffer;
  /** Where the stand-ins start. */
  offsets: number[];
  gzip?: GzipSegments;
}

interface GzipSegments {
  /** The whole gzip answer with the stand-in in each stored block, and the trailer's CRC to write. */
  body: Buffer;
  /** Where each stored block's nonce goes. */
  slots: number[];
  /** CRC-32 of the page with its stand-ins. */
  crc: number;
  /** What changing the bytes at every stand-in by the same difference does to the CRC (a matrix over GF(2)). */
  nonceEffect: Uint32Array;
}

export function nonceCopy(identity: Buffer): NonceCopy {
  const offsets: number[] = [];
  for (let at = identity.indexOf(STANDIN_BYTES); at !== -1; at = identity.indexOf(STANDIN_BYTES, at + NONCE_LENGTH)) offsets.push(at);
  return { identity, offsets };
}

/** The page with `nonce` in place of every stand-in. */
export function withNonce(copy: NonceCopy, nonce: string): Buffer {
  if (copy.offsets.length === 0) return copy.identity;
  const body = answerBuffer(copy.identity.length);
  // TypedArray.set: copies inside V8, no call into C++ per nonce (a page has ~30 of them).
  body.set(copy.identity);
  const nonceBytes = Buffer.from(nonce, "latin1");
  for (const at of copy.offsets) body.set(nonceBytes, at);
  return body;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);
// A final, empty block with fixed Huffman codes: BFINAL=1, BTYPE=01, end-of-block.
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
// A stored block of the nonce's length: BFINAL=0, BTYPE=00 (byte-aligned), LEN, NLEN.
const STORED_HEADER = Buffer.from([0x00, NONCE_LENGTH, 0x00, ~NONCE_LENGTH & 0xff, 0xff]);
// Never in UTF-8 text: what a later segment's dictionary holds where a nonce will be, so no match
// of the compressor can reach into it (the distances still count its length).
const NEVER_MATCHED = 0xff;

function gzipSegments(copy: NonceCopy): GzipSegments {
  const { identity, offsets } = copy;
  const bounds = [0, ...offsets.map((at) => at + NONCE_LENGTH)];
  const ends = [...offsets, identity.length];
  const masked = Buffer.from(identity);
  for (const at of offsets) masked.fill(NEVER_MATCHED, at, at + NONCE_LENGTH);
  const deflated: Buffer[] = [];
  for (let i = 0; i < bounds.length; i++) {
    const segment = identity.subarray(bounds[i], ends[i]);
    // Each segment may refer back to earlier text (its dictionary), never to a nonce.
    const dictionary = i === 0 ? undefined : masked.subarray(Math.max(0, bounds[i]! - 32_768), bounds[i]);
    const raw = zlib.deflateRawSync(segment, { level: 6, finishFlush: zlib.constants.Z_SYNC_FLUSH, ...(dictionary ? { dictionary } : {}) });
    deflated.push(i === 0 ? Buffer.concat([GZIP_HEADER, raw]) : raw);
  }
  // CRC-32 is affine in the message: writing δ over a stand-in changes the CRC by the register
  // effect of δ, carried through the bytes that follow (M^after·raw(δ)). Summed over every site.
  const nonceEffect = new Uint32Array(32);
  for (const at of offsets) {
    const shift = crcShift(identity.length - at - NONCE_LENGTH);
    for (let bit = 0; bit < 32; bit++) nonceEffect[bit]! ^= shift[bit]!;
  }
  const parts: Buffer[] = [deflated[0]!];
  const slots: number[] = [];
  let at = deflated[0]!.length;
  for (const segment of deflated.slice(1)) {
    slots.push(at + STORED_HEADER.length);
    parts.push(STORED_HEADER, STANDIN_BYTES, segment);
    at += STORED_HEADER.length + NONCE_LENGTH + segment.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(identity.length >>> 0, 4);
  parts.push(FINAL_BLOCK, trailer);
  return { body: Buffer.concat(parts), slots, crc: zlib.crc32(identity), nonceEffect };
}

const ZEROS_CRC = zlib.crc32(Buffer.alloc(NONCE_LENGTH));

/** The gzip body with `nonce` in place of every stand-in: segments kept compressed, the nonce stored. */
export function gzipWithNonce(copy: NonceCopy, nonce: string): Buffer {
  const gzip = (copy.gzip ??= gzipSegments(copy));
  const body = answerBuffer(gzip.body.length);
  body.set(gzip.body);
  const nonceBytes = Buffer.from(nonce, "latin1");
  for (const slot of gzip.slots) body.set(nonceBytes, slot);
  // δ = nonce ⊕ stand-in; its register effect raw(δ) = crc32(δ) ⊕ crc32(24 zero bytes).
  for (let i = 0; i < NONCE_LENGTH; i++) nonceBytes[i]! ^= STANDIN_BYTES[i]!;
  const crc = (gzip.crc ^ applyShift(gzip.nonceEffect, (zlib.crc32(nonceBytes) ^ ZEROS_CRC) >>> 0)) >>> 0;
  body.writeUInt32LE(crc, body.length - 8);
  return body;
}

// CRC-32 is linear: crc32(B, c) = M^len(B)·c ⊕ crc32(B, 0), M being one zero byte's effect on the
// register. A shift is that matrix as 32 columns over GF(2); powers of two are built once.
function applyShift(matrix: Uint32Array, value: number): number {
  let result = 0;
  for (let bit = 0; value !== 0; bit++, value >>>= 1) if (value & 1) result ^= matrix[bit]!;
  return result >>> 0;
}

function multiply(a: Uint32Array, b: Uint32Array): Uint32Array {
  const product = new Uint32Array(32);
  for (let bit = 0; bit < 32; bit++) product[bit] = applyShift(a, b[bit]!);
  return product;
}

const ZERO = Buffer.alloc(1);
const POWERS: Uint32Array[] = [Uint32Array.from({ length: 32 }, (_, bit) => (zlib.crc32(ZERO, 2 ** bit) ^ zlib.crc32(ZERO, 0)) >>> 0)];
for (let k = 1; k < 32; k++) POWERS.push(multiply(POWERS[k - 1]!, POWERS[k - 1]!));

function crcShift(length: number): Uint32Array {
  let matrix: Uint32Array = Uint32Array.from({ length: 32 }, (_, bit) => 2 ** bit);
  for (let k = 0; length > 0; k++, length = Math.floor(length / 2)) if (length & 1) matrix = multiply(POWERS[k]!, matrix);
  return matrix;
}

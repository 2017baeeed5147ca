import zlib from "node:zlib";
import { answerBuffer, NONCE_LENGTH, type NonceCopy } from "./nonce-splice";
import { logError } from "#server/observability/log";

/**
 * The brotli copy of a page that carries a fresh nonce per answer (decision 0032). One encoder
 * compresses the page with the first nonce's place flushed into a meta-block of its own; that
 * meta-block is swapped for an uncompressed one holding the answer's nonce. Every later nonce is
 * then a copy of the first (the encoder saw the same marker bytes there), so an answer is three
 * small writes: no compression, no checksum.
 *
 * What makes the swap sound, and how it is checked:
 * - the marker is 24 distinct bytes that HTML never holds, so the encoder matches a marker byte only
 *   with the same byte of another marker: every copy that reaches a nonce copies the nonce;
 * - literal context modelling is off (quality 5, where the encoder honours that), so no literal's
 *   code depends on the bytes before it, which differ between the marker and the nonce;
 * - the marker's own meta-block holds literals only (its bytes occur nowhere before), so swapping
 *   it changes no distance the decoder remembers;
 * - each copy is decoded with two nonces that differ in every byte and repeat none, and kept only
 *   if both come out right. Every output byte is either fixed or some nonce byte by the stream's
 *   structure alone, so two such nonces right prove every nonce right. A page that fails is sent
 *   as gzip, as before.
 */
export interface BrotliSplice {
  /** The stream up to the first nonce, flushed to a byte boundary. */
  head: Buffer;
  /** The rest of the stream, after the first nonce; empty when the page has no nonce. */
  tail: Buffer;
  /** Whether the nonce goes between head and tail (false for a page without one). */
  spliced: boolean;
}

// Control bytes other than tab, line feed and carriage return: never in the store's HTML.
const MARKER = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]);
if (MARKER.length !== NONCE_LENGTH) throw new Error("The brotli marker must be as long as a nonce.");

// An uncompressed meta-block of NONCE_LENGTH bytes (RFC 7932 §9.2): ISLAST 0, MNIBBLES 4 (00),
// MLEN-1 in 16 bits, ISUNCOMPRESSED 1, then zero bits to the byte boundary.
const UNCOMPRESSED_HEADER = (() => {
  const bits = ((NONCE_LENGTH - 1) << 3) | (1 << 19);
  return Buffer.from([bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff]);
})();

// Two check nonces: no byte repeated within either, and differing from each other at every place.
const CHECKS = ["ABCDEFGHIJKLMNOPQRSTUVWX", "abcdefghijklmnopqrstuvwx"].map((n) => Buffer.from(n, "latin1"));

const ENCODER_PARAMS = {
  // 5: the encoder's greedy meta-blocks honour "no literal context"; from 10 on they do not.
  [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
  [zlib.constants.BROTLI_PARAM_DISABLE_LITERAL_CONTEXT_MODELING]: 1,
};

/** Compresses `parts` with one encoder, flushing after each; resolves with each part's output. */
function compressFlushed(parts: Buffer[], sizeHint: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const encoder = zlib.createBrotliCompress({ params: { ...ENCODER_PARAMS, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } });
    const outputs: Buffer[] = [];
    let pending: Buffer[] = [];
    encoder.on("data", (chunk: Buffer) => pending.push(chunk));
    encoder.on("error", reject);
    const next = (index: number) => {
      if (index === parts.length - 1) {
        encoder.on("end", () => resolve([...outputs, Buffer.concat(pending)]));
        encoder.end(parts[index]);
        return;
      }
      encoder.write(parts[index]);
      encoder.flush(zlib.constants.BROTLI_OPERATION_FLUSH, () => {
        outputs.push(Buffer.concat(pending));
        pending = [];
        next(index + 1);
      });
    };
    next(0);
  });
}

function expectedWith(copy: NonceCopy, nonce: Buffer): Buffer {
  const page = Buffer.from(copy.identity);
  for (const at of copy.offsets) nonce.copy(page, at);
  return page;
}

async function build(copy: NonceCopy): Promise<BrotliSplice | null> {
  const { identity, offsets } = copy;
  if (offsets.length === 0) {
    const [whole] = await compressFlushed([identity], identity.length);
    return { head: whole!, tail: Buffer.alloc(0), spliced: false };
  }
  const marked = Buffer.from(identity);
  for (const at of offsets) MARKER.copy(marked, at);
  const first = offsets[0]!;
  const [head, , tail] = await compressFlushed(
    [marked.subarray(0, first), marked.subarray(first, first + NONCE_LENGTH), marked.subarray(first + NONCE_LENGTH)],
    identity.length,
  );
  const splice = { head: head!, tail: tail!, spliced: true };
  for (const nonce of CHECKS) {
    const decoded = await new Promise<Buffer>((resolve, reject) =>
      zlib.brotliDecompress(join(splice, nonce), (error, result) => (error ? reject(error) : resolve(result))),
    ).catch(() => null);
    if (!decoded?.equals(expectedWith(copy, nonce))) return null;
  }
  return splice;
}

function join(splice: BrotliSplice, nonce: Buffer): Buffer {
  if (!splice.spliced) return splice.head;
  const length = splice.head.length + UNCOMPRESSED_HEADER.length + NONCE_LENGTH + splice.tail.length;
  const body = answerBuffer(length);
  body.set(splice.head);
  let at = splice.head.length;
  body.set(UNCOMPRESSED_HEADER, at);
  body.set(nonce, (at += UNCOMPRESSED_HEADER.length));
  body.set(splice.tail, at + NONCE_LENGTH);
  return body;
}

const made = new WeakMap<NonceCopy, BrotliSplice | null>();
const making = new WeakMap<NonceCopy, Promise<BrotliSplice | null>>();

/**
 * Starts making the copy's brotli form (on the thread pool) if it is not made or being made, and
 * resolves when it is: null when this page cannot take the splice.
 */
export function prepareBrotli(copy: NonceCopy): Promise<BrotliSplice | null> {
  if (made.has(copy)) return Promise.resolve(made.get(copy)!);
  let pending = making.get(copy);
  if (!pending) {
    pending = build(copy)
      .catch((error: unknown) => {
        logError("The brotli copy of a page could not be made", error);
        return null;
      })
      .then((splice) => {
        made.set(copy, splice);
        making.delete(copy);
        return splice;
      });
    making.set(copy, pending);
  }
  return pending;
}

/** Whether the copy's brotli form is settled (made, or found impossible). */
export const brotliMade = (copy: NonceCopy): boolean => made.has(copy);

/** The bytes the copy's brotli form holds (0 until made, or when the page cannot take it): a cache's budget counts them. */
export function brotliBytes(copy: NonceCopy): number {
  const splice = made.get(copy);
  return splice ? splice.head.length + splice.tail.length : 0;
}

/**
 * The brotli body with `nonce` in place of every stand-in, or null while the brotli copy is being
 * made (then started) or when the page cannot take it: the caller sends gzip instead.
 */
export function brotliWithNonce(copy: NonceCopy, nonce: string): Buffer | null {
  const splice = made.get(copy);
  if (splice === undefined) {
    void prepareBrotli(copy);
    return null;
  }
  return splice && join(splice, Buffer.from(nonce, "latin1"));
}

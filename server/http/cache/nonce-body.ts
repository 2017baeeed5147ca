import { promisify } from "node:util";
import zlib from "node:zlib";
import { brotliMade, brotliWithNonce, prepareBrotli } from "./brotli-splice";
import { compressionFor, preferredEncoding } from "./negotiation";
import { gzipWithNonce, withNonce, type NonceCopy } from "./nonce-splice";

export interface NonceBody {
  body: Buffer;
  encoding: "br" | "gzip" | null;
}

/**
 * A shared copy's bytes for one answer with its own nonce, in the best coding the browser takes:
 * brotli once the copy's brotli form is made (decision 0032), else gzip, else none.
 */
export function bodyWithNonce(copy: NonceCopy, nonce: string, acceptEncoding: string | undefined): NonceBody {
  const preferred = compressionFor(acceptEncoding);
  if (preferred === "br") {
    const body = brotliWithNonce(copy, nonce);
    if (body) return { body, encoding: "br" };
  }
  // Brotli not made yet: the browser's choice among what is at hand now.
  const sent = preferred === "br" ? preferredEncoding(acceptEncoding, ["gzip", "identity"]) : preferred;
  if (sent === "gzip") {
    return { body: gzipWithNonce(copy, nonce), encoding: "gzip" };
  }
  return { body: withNonce(copy, nonce), encoding: null };
}

/**
 * As `bodyWithNonce`, but a browser taking brotli waits the few milliseconds the copy's brotli form
 * takes on the thread pool, rather than the event loop deflating a gzip form that no browser may
 * ask for again (the landing page changes every second: each new copy would pay for both).
 */
export function bodyWithNonceWhenReady(copy: NonceCopy, nonce: string, acceptEncoding: string | undefined): NonceBody | Promise<NonceBody> {
  if (compressionFor(acceptEncoding) === "br" && !brotliMade(copy)) {
    return prepareBrotli(copy).then(() => bodyWithNonce(copy, nonce, acceptEncoding));
  }
  return bodyWithNonce(copy, nonce, acceptEncoding);
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * A copy sent once and never kept (a page carrying one visitor's flash, decision 0039): its own
 * nonce written in, then compressed once on the thread pool. Making a kept copy's splice forms
 * (a brotli encode and two check decodes, or gzip segments on the event loop) would cost more for
 * bytes nobody else is sent.
 */
export async function oneOffBody(copy: NonceCopy, nonce: string, acceptEncoding: string | undefined): Promise<NonceBody> {
  const page = withNonce(copy, nonce);
  const preferred = compressionFor(acceptEncoding);
  if (preferred === "br") {
    const params = { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: page.length };
    return { body: await brotli(page, { params }), encoding: "br" };
  }
  if (preferred === "gzip") return { body: await gzip(page, { level: 6 }), encoding: "gzip" };
  return { body: page, encoding: null };
}

import fresh from "fresh";
import Negotiator from "negotiator";

/**
 * How a request's Accept-Encoding and If-None-Match are read, for every door that keeps its own
 * bytes (build assets, uploads, the page cache, the API's answer cache, the render memo), with the
 * packages Express reads them with. One reading, so the same browser is sent the same coding and
 * the same 304 by each of them.
 */

export type Coding = "br" | "gzip" | "identity";

// Among codings a browser likes alike, brotli is the smallest.
const PREFERENCE: Coding[] = ["br", "gzip", "identity"];

// RFC 9110 §8.4.1.3: x-gzip is gzip. Negotiator does not know the alias.
const X_GZIP = /(^|,)(\s*)x-gzip(?=\s*(;|,|$))/gi;

function rank(acceptEncoding: string): Coding[] {
  const header = acceptEncoding.replace(X_GZIP, "$1$2gzip");
  return new Negotiator({ headers: { "accept-encoding": header } }).encodings(PREFERENCE, PREFERENCE) as Coding[];
}

const ranked = new Map<string, Coding[]>();
// Browsers send a handful of distinct headers, each judged once; a longer one is a stranger's and
// is judged without being remembered, and the memo is emptied when full, so strangers cannot grow it.
const REMEMBERED_CHARS = 128;
const REMEMBERED_HEADERS = 256;

/**
 * The codings the header accepts, best first (RFC 9110 §12.5.3): the highest q wins, ties go to the
 * smaller coding, and an unlisted identity ranks with the least wanted coding listed (so
 * "br;q=0.8, gzip;q=0.9" still gets a compressed copy). No header means the bytes as they are.
 */
export function acceptedCodings(acceptEncoding: string | undefined): readonly Coding[] {
  const header = acceptEncoding ?? "";
  if (header.length > REMEMBERED_CHARS) return rank(header);
  let codings = ranked.get(header);
  if (!codings) {
    codings = rank(header);
    if (ranked.size >= REMEMBERED_HEADERS) ranked.clear();
    ranked.set(header, codings);
  }
  return codings;
}

/**
 * The coding to send among those at hand. When the browser refuses all of them the plain bytes are
 * sent anyway: a page that loads beats a 406.
 */
export function preferredEncoding(acceptEncoding: string | undefined, available: readonly Coding[]): Coding {
  return acceptedCodings(acceptEncoding).find((coding) => available.includes(coding)) ?? "identity";
}

/** As preferredEncoding for a copy that can be had in every coding; null is the bytes as they are. */
export function compressionFor(acceptEncoding: string | undefined): "br" | "gzip" | null {
  const coding = preferredEncoding(acceptEncoding, PREFERENCE);
  return coding === "identity" ? null : coding;
}

/**
 * Whether the browser's If-None-Match names the representation it would be sent (compared weakly,
 * `*` naming any: RFC 9110 §13.1.2), so a 304 answers it.
 */
export function notModified(ifNoneMatch: string | null | undefined, etag: string): boolean {
  // Only If-None-Match is passed: no answer here carries Last-Modified, and the store is the origin
  // that has just revalidated, so a request's Cache-Control: no-cache changes nothing.
  return fresh({ "if-none-match": ifNoneMatch ?? undefined }, { etag });
}

// Browsers drop tabs and newlines anywhere in a URL and read "\" as "/", so "/\t/evil.example" and
// "/\evil.example" both arrive as "//evil.example": another site. A CR or LF would also break the
// Location header (a 500 that loses the sign-in). DEL and the C1 range are refused with them.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001F\u007F-\u009F\\]/;
// A path resolves the same against any origin, so a fixed one stands in for the site's own: what
// stays on it stays on ours, whatever host the request came to.
const HERE = "http://site.invalid";

/**
 * Where to send a visitor after signing in: a path on this site, written as the browser will read
 * it (non-ASCII percent-encoded, so it always fits in a Location header), or the fallback.
 */
export function safeRedirectPath(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof to !== "string" || !to.startsWith("/") || UNSAFE.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, HERE);
  } catch {
    return fallback;
  }
  return url.origin === HERE ? url.pathname + url.search + url.hash : fallback;
}

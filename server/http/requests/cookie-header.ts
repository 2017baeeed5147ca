import { percentDecoded } from "./percent-decode";

/**
 * The one reader of the Cookie header (issue 21, DESIGN "Parsers are total"). Every cookie the
 * store reads (session, cart, flash, waiting_room_place, waiting_room_pass, early_access) comes
 * through `cookieOf`; it never throws. A malformed value counts as absent: a broken percent escape,
 * a control character once decoded (PostgreSQL refuses NUL in text), or more than a browser keeps
 * for one cookie. The first cookie of a name wins, as the `cookie` package (Remix's) reads it.
 */

/** Browsers keep at most 4096 bytes for a cookie's name and value together (RFC 6265 §6.1). */
export const MAX_COOKIE_VALUE = 4096;

// C0 controls and DEL: nothing the store writes into a cookie has them.
// eslint-disable-next-line no-control-regex -- finding them is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export interface CookieRead {
  /** The value as sent (quotes taken off), for a signed cookie whose own parser decodes it. */
  raw: string;
  /** The value percent-decoded. */
  value: string;
}

/** The first cookie of that name in a Cookie header, or null when absent or malformed. Never throws. */
export function cookieOf(header: string | null | undefined, name: string): CookieRead | null {
  const sent = sentCookie(header, name);
  return sent === null ? null : wellFormed(sent);
}

/**
 * The first cookie of that name exactly as it was sent, not yet checked: a key for a memo of what
 * `wellFormed` made of it (the same text always reads the same way), or null when absent.
 */
export function sentCookie(header: string | null | undefined, name: string): string | null {
  if (typeof header !== "string" || !header.includes(name)) return null;
  let start = 0;
  while (start < header.length) {
    let end = header.indexOf(";", start);
    if (end === -1) end = header.length;
    const eq = header.indexOf("=", start);
    if (eq !== -1 && eq < end && header.slice(start, eq).trim() === name) return header.slice(eq + 1, end).trim();
    start = end + 1;
  }
  return null;
}

/** A sent cookie value read as `cookieOf` reads it: null when malformed. Never throws. */
export function wellFormed(sent: string): CookieRead | null {
  const raw = sent.length >= 2 && sent.startsWith('"') && sent.endsWith('"') ? sent.slice(1, -1) : sent;
  if (raw.length > MAX_COOKIE_VALUE) return null;
  const value = percentDecoded(raw);
  if (value === null || CONTROL.test(value)) return null;
  return { raw, value };
}

/** A cookie's decoded value, or null when absent or malformed. */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  return cookieOf(header, name)?.value ?? null;
}

/** A cookie's value as sent (not decoded), or null when absent or malformed. */
export function rawCookieValue(header: string | null | undefined, name: string): string | null {
  return cookieOf(header, name)?.raw ?? null;
}

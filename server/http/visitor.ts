import type { Visitor } from "../contracts/visitor";
import type { AppContext } from "../context";
import { bagCount } from "../services/cart";
import { authenticate } from "./auth";
import { cookiesFor } from "./cookies";
import { readFlash } from "./flash";

export interface VisitorRead {
  visitor: Visitor;
  /** Set-Cookie lines that must go out with the answer (a renewed session, a flash to clear). */
  setCookies: string[];
}

/**
 * The raw value of the first cookie of that name in a Cookie header (as the `cookie` package
 * reads it: the first one wins), or undefined. No decoding: the value is a key here, and the
 * signed-cookie check below decodes it as Remix does.
 */
export function rawCookie(header: string, name: string): string | undefined {
  let start = 0;
  while (start < header.length) {
    let end = header.indexOf(";", start);
    if (end === -1) end = header.length;
    const eq = header.indexOf("=", start);
    if (eq !== -1 && eq < end && header.slice(start, eq).trim() === name) return header.slice(eq + 1, end).trim();
    start = end + 1;
  }
  return undefined;
}

// Checking the bag cookie's signature (an HMAC through WebCrypto) is the dearest step of a cached
// page; a value always verifies the same way, so each distinct one is checked once per process.
const cartIdByValue = new Map<string, string | null>();
const checking = new Map<string, Promise<string | null>>();
const MAX_REMEMBERED = 10_000;

async function verifyCartValue(ctx: AppContext, value: string): Promise<string | null> {
  // Signed cookies parse the same whatever their Secure flag: the plain set is enough here.
  const cart = cookiesFor(ctx.config, new Request("http://localhost/")).cart;
  const id = (await cart.parse(`cart=${value}`)) as unknown;
  return typeof id === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(id) ? id : null;
}

function cartIdOf(ctx: AppContext, value: string | undefined): string | null | Promise<string | null> {
  if (!value) return null;
  const known = cartIdByValue.get(value);
  if (known !== undefined) return known;
  let pending = checking.get(value);
  if (!pending) {
    pending = verifyCartValue(ctx, value).then(
      (id) => {
        if (cartIdByValue.size >= MAX_REMEMBERED) cartIdByValue.delete(cartIdByValue.keys().next().value!);
        cartIdByValue.set(value, id);
        checking.delete(value);
        return id;
      },
      (error: unknown) => {
        checking.delete(value);
        throw error;
      },
    );
    checking.set(value, pending);
  }
  return pending;
}

function bagOnly(ctx: AppContext, sessionId: string | null): VisitorRead | Promise<VisitorRead> {
  const read = (cartCount: number): VisitorRead => ({ visitor: { cartCount, user: null, toast: null }, setCookies: [] });
  const count = bagCount(ctx, sessionId);
  // A number on SQLite (no promise, no tick); a promise on PostgreSQL.
  return typeof count === "number" ? read(count) : count.then(read);
}

/**
 * The visitor of a cached page hit from the raw Cookie header, without a Fetch Request: most
 * drop-day shoppers carry a bag cookie and nothing else, and their bag count is one prepared
 * statement (synchronous once their cookie's signature is known). Null when the header holds a
 * session or a flash: those go through `readVisitor`, which also sends the cookies back.
 */
export function quickVisitor(ctx: AppContext, cookieHeader: string): VisitorRead | Promise<VisitorRead> | null {
  if (rawCookie(cookieHeader, "session") !== undefined || rawCookie(cookieHeader, "flash") !== undefined) return null;
  const id = cartIdOf(ctx, rawCookie(cookieHeader, "cart"));
  return id instanceof Promise ? id.then((sessionId) => bagOnly(ctx, sessionId)) : bagOnly(ctx, id);
}

/**
 * Who is asking, from their own cookies only: bag count, signed-in user, a flash shown once. The
 * root loader and the page cache's holes both read it here, so a cached page and a rendered one
 * cannot disagree. `setCookies` (a renewed session, a flash to clear) must go out with the answer.
 */
export async function readVisitor(ctx: AppContext, request: Request): Promise<VisitorRead> {
  const cookie = request.headers.get("Cookie");
  if (!cookie) return { visitor: { cartCount: 0, user: null, toast: null }, setCookies: [] };
  const [auth, flash, sessionId] = await Promise.all([
    authenticate(ctx, request),
    readFlash(ctx, request),
    cartIdOf(ctx, rawCookie(cookie, "cart")),
  ]);
  return {
    visitor: {
      // The badge counts what the bag shows (hidden or unreleased products' lines are left out).
      cartCount: await bagCount(ctx, sessionId),
      user: auth.user ? { username: auth.user.username, isAdmin: auth.user.isAdmin } : null,
      toast: flash.toast,
    },
    setCookies: [auth.setCookie, flash.clear].filter((cookie): cookie is string => cookie !== null),
  };
}

import type { Visitor } from "#server/contracts/visitor";
import type { AppContext } from "#server/context";
import { bagCount } from "#server/services/cart/cart";
import { authenticate } from "./auth";
import { cartIdOf, rawCookie } from "./cart-session";
import { readFlash } from "./flash";

// Kept exported from here for the page cache and the tests that read the raw header.
export { rawCookie };

export interface VisitorRead {
  visitor: Visitor;
  /** Set-Cookie lines that must go out with the answer (a renewed session, a flash to clear). */
  setCookies: string[];
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
 * `countFromPage`: the count from the page's own read of the whole bag (request-bag.ts), on the
 * pages that make one, instead of a second read.
 */
export async function readVisitor(ctx: AppContext, request: Request, countFromPage?: () => Promise<number>): Promise<VisitorRead> {
  const cookie = request.headers.get("Cookie");
  if (!cookie) return { visitor: { cartCount: 0, user: null, toast: null }, setCookies: [] };
  const [auth, flash, cartCount] = await Promise.all([
    authenticate(ctx, request),
    readFlash(ctx, request),
    // The badge counts what the bag shows (hidden or unreleased products' lines are left out).
    countFromPage ? countFromPage() : Promise.resolve(cartIdOf(ctx, rawCookie(cookie, "cart"))).then((id) => bagCount(ctx, id)),
  ]);
  return {
    visitor: {
      cartCount,
      user: auth.user ? { username: auth.user.username, isAdmin: auth.user.isAdmin } : null,
      toast: flash.toast,
    },
    setCookies: [auth.setCookie, flash.clear].filter((cookie): cookie is string => cookie !== null),
  };
}

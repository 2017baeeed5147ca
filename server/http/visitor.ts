import type { Visitor } from "../contracts/visitor";
import type { AppContext } from "../context";
import { getCart } from "../services/cart";
import { authenticate } from "./auth";
import { cartSessionIdOf } from "./cart-session";
import { readFlash } from "./flash";

// Checking the bag cookie's signature is the dearest step of a cached page; the same header
// always verifies the same way, so each distinct one is checked once.
const cartIdByCookie = new Map<string, Promise<string | null>>();
const MAX_REMEMBERED = 10_000;

function cartIdOf(ctx: AppContext, request: Request): Promise<string | null> {
  const cookie = request.headers.get("Cookie") ?? "";
  let id = cartIdByCookie.get(cookie);
  if (!id) {
    id = cartSessionIdOf(ctx, request);
    if (cartIdByCookie.size >= MAX_REMEMBERED) cartIdByCookie.delete(cartIdByCookie.keys().next().value!);
    cartIdByCookie.set(cookie, id);
  }
  return id;
}

/**
 * Who is asking, from their own cookies only: bag count, signed-in user, a flash shown once. The
 * root loader and the page cache's holes both read it here, so a cached page and a rendered one
 * cannot disagree. `setCookies` (a renewed session, a flash to clear) must go out with the answer.
 */
export async function readVisitor(ctx: AppContext, request: Request): Promise<{ visitor: Visitor; setCookies: string[] }> {
  if (!request.headers.get("Cookie")) return { visitor: { cartCount: 0, user: null, toast: null }, setCookies: [] };
  const [auth, flash, cartCount] = await Promise.all([
    authenticate(ctx, request),
    readFlash(ctx, request),
    // The badge counts what the bag shows (hidden or unreleased products' lines are left out).
    cartIdOf(ctx, request).then(async (sessionId) => (sessionId ? (await getCart(ctx, sessionId)).count : 0)),
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

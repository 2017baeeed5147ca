import type { CartView } from "#server/contracts/cart";
import type { AppContext } from "#server/context";
import { getCart } from "#server/services/cart/cart";
import { cartSessionIdOf } from "./cart-session";

/**
 * The pages whose own loader reads the whole bag. On them the root loader's badge counts that same
 * read instead of asking the database again (docs/decisions/0027).
 */
const WHOLE_BAG_PAGES = new Set(["/cart", "/checkout"]);

// Remix hands every loader of one request the same load context object (server.js makes one per
// request): the bag read for it is kept there, and goes with it.
const bags = new WeakMap<object, Promise<CartView>>();

/** The browser's whole bag, read once per request however many of its loaders ask. */
export function requestBag(ctx: AppContext, request: Request, loadContext: unknown): Promise<CartView> {
  const key = typeof loadContext === "object" && loadContext !== null ? loadContext : null;
  let bag = key ? bags.get(key) : undefined;
  if (!bag) {
    bag = cartSessionIdOf(ctx, request).then((sessionId) => getCart(ctx, sessionId));
    if (key) bags.set(key, bag);
  }
  return bag;
}

/**
 * For the root loader: on a page that reads the whole bag, the badge's count from that one read;
 * elsewhere undefined, and the visitor read counts the bag itself (one prepared statement).
 */
export function badgeFromPageBag(ctx: AppContext, request: Request, loadContext: unknown): (() => Promise<number>) | undefined {
  if (!WHOLE_BAG_PAGES.has(new URL(request.url).pathname)) return undefined;
  return async () => (await requestBag(ctx, request, loadContext)).count;
}

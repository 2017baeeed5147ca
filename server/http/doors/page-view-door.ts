import type { IncomingMessage } from "node:http";
import type { AppContext } from "#server/context";
import { boundedMemo } from "#server/bounded-memo";
import { MAX_CART_COOKIE_CHARS } from "#server/http/cart-session";
import { rawCookieValue, sentCookie, wellFormed } from "#server/http/requests/cookie-header";
import { recordPageView } from "#server/services/reporting/page-views";

type NodeRequest = IncomingMessage & { originalUrl?: string };

/**
 * The bag's id from its signed cookie, read without checking the signature (a forged cookie can
 * only add one visitor, as clearing cookies can); the services count bag adds by the same id.
 */
function unverifiedCartIdOf(decoded: string): string | null {
  try {
    const dot = decoded.lastIndexOf(".");
    const id = JSON.parse(Buffer.from(dot === -1 ? decoded : decoded.slice(0, dot), "base64").toString("utf8")) as unknown;
    return typeof id === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}

function readCartSession(sent: string): string | null {
  const cart = wellFormed(sent)?.value;
  return cart ? unverifiedCartIdOf(cart) : null;
}

// A shopper sends the same bag cookie with every page: what it reads as is worked out once per
// process (decoding, base64, JSON). The memo is bounded in entries and in each key's length (the
// store's own values are about 82 characters), so a stream of made-up values cannot grow it.
const cartSessionOf = boundedMemo(readCartSession, { entries: 10_000, maxKeyLength: MAX_CART_COOKIE_CHARS });

/** Test hook: how many bag cookies the memo holds. */
export const cartCookiesKept = () => cartSessionOf.size;

/** Which session a request belongs to: the bag's id, else the signed-in user's token, else none. */
export function sessionIdOf(cookie: string | undefined): string | null {
  if (!cookie) return null;
  const cart = sentCookie(cookie, "cart");
  const id = cart === null ? null : cartSessionOf(cart);
  if (id) return id;
  const session = rawCookieValue(cookie, "session");
  return session ? `user:${session}` : null;
}

/**
 * A page view from node:http's own request, for the fast path ahead of Express (every page
 * passes there, cached or not): header reads and an array push, no await. The service is handed
 * the session, not the Cookie header; a getter, because every asset and API read passes here too
 * and the service asks for the session only once the request is a view.
 */
export function countPageView(ctx: AppContext, req: NodeRequest): void {
  const headers = req.headers;
  recordPageView(ctx, {
    method: req.method ?? "GET",
    path: req.originalUrl ?? req.url ?? "/",
    host: headers.host,
    get sessionId() {
      return sessionIdOf(headers.cookie);
    },
    referer: headers.referer,
    userAgent: headers["user-agent"],
    purpose: (headers["sec-purpose"] ?? headers.purpose) as string | undefined,
  });
}

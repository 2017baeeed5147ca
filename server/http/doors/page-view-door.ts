import type { IncomingMessage } from "node:http";
import type { AppContext } from "#server/context";
import { cookieValue, rawCookieValue } from "#server/http/requests/cookie-header";
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

/** Which session a request belongs to: the bag's id, else the signed-in user's token, else none. */
export function sessionIdOf(cookie: string | undefined): string | null {
  if (!cookie) return null;
  const cart = cookieValue(cookie, "cart");
  const id = cart ? unverifiedCartIdOf(cart) : null;
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

import { isBotAgent } from "#server/observability/bot-agent";
import type { AppContext } from "#server/context";
import { countCookielessView, eventId, recordEvent } from "./events";

/**
 * The store's pages by kind, as the funnel and the drop report count them. A client-side
 * navigation asks for the page's data (`/store.data`, `/_root.data` for home: Remix's single
 * fetch), which is a view of that page too. The back office, the API, assets and files are not
 * pages a shopper views.
 */
const KINDS: [RegExp, string][] = [
  [/^\/(?:_root)?$/, "home"],
  [/^\/countdown$/, "countdown"],
  [/^\/store$/, "store"],
  [/^\/store\/\d+$/, "product"],
  [/^\/cart$/, "cart"],
  [/^\/checkout$/, "checkout"],
  [/^\/checkout\/pay\/[^/]+$/, "pay"],
  [/^\/checkout-success$/, "success"],
  [/^\/waiting-room$/, "waiting-room"],
  [/^\/early-access\/[^/]+$/, "early-access"],
  [/^\/about$/, "about"],
  [/^\/support$/, "support"],
];

export const PAGE_KINDS = KINDS.map(([, kind]) => kind);

/** The page kind of a path (its query ignored), or null for anything that is not a store page. */
export function pageKindOf(path: string): string | null {
  const query = path.indexOf("?");
  let pathname = query === -1 ? path : path.slice(0, query);
  if (pathname.length > 1 && pathname.endsWith("/")) pathname = pathname.slice(0, -1);
  if (pathname.endsWith(".data")) pathname = pathname.slice(0, -5);
  // Quick refusals first: the API, assets and the back office are most of what is not a page.
  if (pathname.startsWith("/api/") || pathname.startsWith("/assets/") || pathname.startsWith("/admin")) return null;
  for (const [pattern, kind] of KINDS) if (pattern.test(pathname)) return kind;
  return null;
}

export interface PageRequest {
  method: string;
  path: string;
  host: string | undefined;
  /** The visitor's session (the bag's id, else the signed-in user's) as the door read it; null without one. */
  readonly sessionId: string | null;
  referer: string | undefined;
  userAgent: string | undefined;
  /** `Sec-Purpose` / `Purpose`: a prefetch is not a view. */
  purpose: string | undefined;
}

function fromThisStore(referer: string | undefined, host: string | undefined): boolean {
  if (!referer || !host) return false;
  const start = referer.indexOf("://");
  if (start === -1) return false;
  const rest = referer.slice(start + 3);
  return rest === host || rest.startsWith(`${host}/`) || rest.startsWith(`${host}?`);
}

/**
 * Counts a page view (decision 0025): GET of a store page, not a prefetch, not a known bot. A
 * visitor without any cookie is counted by the first page of each visit (a view whose Referer is
 * not the store itself: they came from a link, a bookmark, the address bar), since nothing else
 * may tell their views apart; such views are counts written once a minute. A session's views of
 * one page count once a minute (decision 0040): a reload loop writes one row, not thousands.
 */
export function recordPageView(ctx: AppContext, request: PageRequest): void {
  if (request.method !== "GET" || request.purpose?.includes("prefetch")) return;
  const pageKind = pageKindOf(request.path);
  if (!pageKind || isBotAgent(request.userAgent ?? "")) return;
  const { sessionId } = request;
  if (!sessionId) return countCookielessView(ctx, { pageKind, entry: !fromThisStore(request.referer, request.host) });
  // /store/99999999999 is a product page no product has: a view, of no product.
  const productId = pageKind === "product" ? eventId(Number(/\/store\/(\d{1,10})(?:\D|$)/.exec(request.path)?.[1])) : null;
  recordEvent(ctx, { kind: "view", pageKind, sessionId, productId, oncePerMinute: true });
}

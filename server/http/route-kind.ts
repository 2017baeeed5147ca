import type { RouteKind } from "#server/observability/meter";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

/** The request's method as a metrics label: one of the seven the store knows, else "other" (a stranger may send any token). */
export function methodLabel(method: string | undefined): string {
  return method !== undefined && METHODS.has(method) ? method : "other";
}

/**
 * Who answered a request: the app behind Express (Remix, or the waiting-room gate ahead of it),
 * the fast path from a kept copy (the page cache), or a door on the fast path that runs the app's
 * own code without Express (the memo door, the API's writes).
 */
export type AnsweredBy = "app" | "cache" | "door";

/**
 * Which kind of answer a request is, from its path and who answered it (bounded: never the path
 * itself). A page the page cache answered is a `cached_page`; a page the memo door answered is a
 * `memo_page` (decision 0062): its loaders ran and only the render was kept, so it costs more
 * than a cache hit and less than Remix. Remix's data requests (`*.data`) are the pages they load for.
 */
export function routeKindOf(url: string | undefined, answeredBy: AnsweredBy): RouteKind {
  const path = url ?? "/";
  const end = path.search(/[?#]/);
  const pathname = end === -1 ? path : path.slice(0, end);
  if (pathname === "/api/trpc" || pathname.startsWith("/api/trpc/")) return "trpc";
  if (pathname === "/api" || pathname.startsWith("/api/")) return "api";
  if (PROBES.has(pathname)) return "probe";
  if (pathname.startsWith("/assets/") || pathname.startsWith("/uploads/")) return "asset";
  if (/\.[^/]*$/.test(pathname) && !pathname.endsWith(".data")) return "asset";
  // The memo door is the only door that answers a page; the API's writes are "api" above.
  if (answeredBy === "door") return "memo_page";
  return answeredBy === "cache" ? "cached_page" : "page";
}

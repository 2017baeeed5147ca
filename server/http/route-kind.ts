import type { RouteKind } from "#server/observability/meter";

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

/** The request's method as a metrics label: one of the seven the store knows, else "other" (a stranger may send any token). */
export function methodLabel(method: string | undefined): string {
  return method !== undefined && METHODS.has(method) ? method : "other";
}

/**
 * Which kind of answer a request is, from its path alone (bounded: never the path itself). A page
 * the fast path answered from the page cache is a `cached_page`. Remix's data requests (`*.data`)
 * are the pages they load for.
 */
export function routeKindOf(url: string | undefined, answeredByFastPath: boolean): RouteKind {
  const path = url ?? "/";
  const end = path.search(/[?#]/);
  const pathname = end === -1 ? path : path.slice(0, end);
  if (pathname === "/api/trpc" || pathname.startsWith("/api/trpc/")) return "trpc";
  if (pathname === "/api" || pathname.startsWith("/api/")) return "api";
  if (PROBES.has(pathname)) return "probe";
  if (pathname.startsWith("/assets/") || pathname.startsWith("/uploads/")) return "asset";
  if (/\.[^/]*$/.test(pathname) && !pathname.endsWith(".data")) return "asset";
  return answeredByFastPath ? "cached_page" : "page";
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import { apiRouter } from "#server/api/dispatch";
import { NO_STORE } from "#server/http/cache/cache-control";
import { answerBare } from "#server/http/failure-answer";

type RouteObject = Parameters<typeof matchRoutes>[0][number];
type Route = RouteObject & { hasAction: boolean; children?: Route[] };

/** Remix's flat route table as the nested tree its matcher reads, each route marked by whether it takes posts. */
function routeTree(build: ServerBuild): Route[] {
  const byParent = new Map<string | undefined, Route[]>();
  for (const route of Object.values(build.routes)) {
    const node = {
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      hasAction: Boolean(route.module.action),
    };
    byParent.set(route.parentId, [...(byParent.get(route.parentId) ?? []), node as Route]);
  }
  const attach = (nodes: Route[]): Route[] =>
    nodes.map((node) => (node.index ? node : { ...node, children: attach(byParent.get(node.id) ?? []) }));
  return attach(byParent.get(undefined) ?? []);
}

const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** `OPTIONS *` asks about the server as a whole: every method some page or API path takes. */
function serverAllow(): string {
  const used = new Set(["GET", "HEAD", "POST", "OPTIONS", ...apiRouter.entries.flatMap((entry) => entry.allow.split(", "))]);
  return [...used].sort((a, b) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)).join(", ");
}

/** A single-fetch data URL names its page: `/store/1.data` is /store/1, `/_root.data` is /. */
function pagePath(pathname: string): string {
  if (!pathname.endsWith(".data")) return pathname;
  const page = pathname.slice(0, -".data".length);
  return page === "/_root" ? "/" : page;
}

/**
 * What a page route answers besides GET and HEAD (decision 0073). Remix runs a route's action for
 * any method that is not GET or HEAD, so a DELETE of /store/1 put the product in a bag; the store's
 * forms only ever GET and POST. Before Remix: OPTIONS is answered 204 with the page's methods,
 * any other method but POST 405 with the same Allow (RFC 9110 requires it there), and a POST goes
 * on to Remix, which answers it 405 itself where the page takes none: that answer is given the
 * Allow here, as Remix names no methods.
 */
export function pageMethods(build: ServerBuild) {
  const routes = routeTree(build);
  const everywhere = serverAllow();
  /** The page's Allow header; null for a path whose escapes decode to no text (Express answers it 400). */
  const allowOf = (url: string): string | null => {
    if (url === "*") return everywhere;
    let parsed: URL;
    try {
      parsed = new URL(url, "http://localhost");
      decodeURIComponent(parsed.pathname);
    } catch {
      return null;
    }
    const matches = matchRoutes(routes, pagePath(parsed.pathname)) ?? [];
    // The route a post goes to, as Remix picks it: the deepest match, but an index route's parent
    // unless the URL says ?index.
    const last = matches.at(-1)?.route as Route | undefined;
    const target = last?.index && !parsed.searchParams.has("index") ? (matches.at(-2)?.route as Route | undefined) : last;
    return target?.hasAction ? "GET, HEAD, POST, OPTIONS" : "GET, HEAD, OPTIONS";
  };
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void, brandName: string): void => {
    const method = req.method;
    if (method === "GET" || method === "HEAD") return next();
    const allow = allowOf(req.originalUrl ?? req.url ?? "/");
    if (allow === null) return next();
    if (method === "POST") {
      // Headers set before Remix are kept by its adapter (it appends its own).
      if (!allow.includes("POST")) res.setHeader("Allow", allow);
      return next();
    }
    if (method === "OPTIONS") {
      res.writeHead(204, { Allow: allow, "Cache-Control": NO_STORE }).end();
      return;
    }
    answerBare(req, res, 405, brandName, "This page does not take that kind of request.", { Allow: allow });
  };
}

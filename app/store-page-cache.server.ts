import type { IncomingMessage } from "node:http";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { renderVisitorFragments } from "./components/visitor-fragments.server";
import type { AppContext } from "#server/context";
import { forwardedProto } from "#server/http/requests/forwarded";
import { pageCache, type PageQuery } from "#server/http/cache/page-cache";
import { supportOrderNumberOf } from "#server/contracts/support";
import { templateRenderContext } from "#server/http/cache/page-template";
import { quickVisitor, readVisitor } from "#server/http/visitor";
import { pageVersionOf, readPageVersions } from "#server/http/cache/version-reader";

// The public pages a drop's crowd reads. Never /cart, /checkout, /admin or /auth: those are
// about one visitor through and through.
const CACHED = /^\/(?:|countdown|store|store\/\d+|about|support)$/;
export const isCachedPage = (pathname: string) => CACHED.test(pathname);

/** A positive whole number as `Number(value)` reads it, written one way; anything else reads as absent. */
const positiveInteger = (value: string) => {
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? String(number) : null;
};

/**
 * The query parameters each cached page's loaders read (decision 0039), with how each reads a
 * value. A page not named here reads none: any query string is that same page. A loader that
 * starts reading a parameter must be named here, or every query would get the first one's page.
 */
const PAGE_QUERIES: [RegExp, PageQuery][] = [
  // ?image= picks the big picture without JavaScript (app/routes/store.$productId.tsx): an id
  // that is not one of the product's images shows the first, as no parameter does.
  [/^\/store\/\d+$/, { image: positiveInteger }],
];
export const pageQueryOf = (pathname: string): PageQuery | undefined => PAGE_QUERIES.find(([page]) => page.test(pathname))?.[1];

/**
 * The query parameters that make a cached page one visitor's own (decision 0051): with one
 * present the page is rendered for that request alone, private and unstored; without, it is the
 * cached page. /support?orderNumber= is the order page's "Need help with this order?".
 */
const PERSONAL_QUERIES: [RegExp, PageQuery][] = [[/^\/support$/, { orderNumber: supportOrderNumberOf }]];
export const personalQueryOf = (pathname: string): PageQuery | undefined => PERSONAL_QUERIES.find(([page]) => page.test(pathname))?.[1];

/** The scheme as Express reads it (req.protocol), for the cache's answers ahead of Express. */
export function protocolOf(ctx: AppContext, req: IncomingMessage): string {
  if ("encrypted" in req.socket && req.socket.encrypted) return "https";
  return forwardedProto(req.headers["x-forwarded-proto"], ctx.config.trustProxy) ?? "http";
}

/** The page cache as server.js mounts it: the store's pages, version, visitor and holes. */
export function storePageCache(
  build: ServerBuild,
  ctx: AppContext,
  options: { ttlMs?: number; versionEveryMs?: number; readVersion?: () => Promise<number> } = {},
) {
  const handle = createRequestHandler(build, "production");
  let last: Awaited<ReturnType<typeof readPageVersions>> | undefined;
  return pageCache({
    // Each page's own version: a product's write re-renders its page and /store, not the others (decision 0027).
    readVersion: async () => {
      const versions = (last = await readPageVersions(ctx, last));
      return (pathname: string) => pageVersionOf(versions, pathname);
    },
    ...options,
    match: isCachedPage,
    queryOf: pageQueryOf,
    personalQueryOf,
    origin: ctx.config.publicUrl,
    render: (request) => handle(request, templateRenderContext()),
    readVisitor: (request) => readVisitor(ctx, request),
    quickVisitor: (cookieHeader) => quickVisitor(ctx, cookieHeader),
    protocolOf: (req) => protocolOf(ctx, req),
    fragments: renderVisitorFragments,
  });
}

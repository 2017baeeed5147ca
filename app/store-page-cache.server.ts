import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { renderVisitorFragments } from "~/components/visitor-fragments.server";
import { getAppContext } from "../server/boot";
import type { IncomingMessage, ServerResponse } from "node:http";
import { hasEarlyAccessCookie } from "../server/http/early-access";
import { pageCache } from "../server/http/page-cache";
import { TEMPLATE_HEADER } from "../server/http/page-template";
import { readVisitor } from "../server/http/visitor";
import { readPageVersion } from "../server/services/page-version";

// The public pages a drop's crowd reads. Never /cart, /checkout, /admin or /auth: those are
// about one visitor through and through.
const CACHED = /^\/(?:|countdown|store|store\/\d+|about|support)$/;

/** The page cache as server.js mounts it: the store's pages, version, visitor and holes. */
export function storePageCache(build: ServerBuild, options: { ttlMs?: number; versionEveryMs?: number } = {}) {
  const handle = createRequestHandler(build, "production");
  const cache = pageCache({
    ...options,
    match: (pathname) => CACHED.test(pathname),
    render: (request) => handle(request, { clientIp: "page-cache" }),
    readVersion: async () => readPageVersion(await getAppContext()),
    readVisitor: async (request) => readVisitor(await getAppContext(), request),
    fragments: renderVisitorFragments,
  });
  // A browser with an early-access pass sees products nobody else may (decision 0020): its pages
  // are neither served from nor written to the shared cache; Remix renders them for it alone.
  // The check is one HMAC of its cookie, no database.
  return async (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    const { config } = await getAppContext();
    if (!hasEarlyAccessCookie(req.headers.cookie, config.sessionSecret)) return cache(req, res, next);
    delete req.headers[TEMPLATE_HEADER];
    next();
  };
}

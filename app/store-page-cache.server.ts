import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { renderVisitorFragments } from "~/components/visitor-fragments.server";
import { getAppContext } from "../server/boot";
import { pageCache } from "../server/http/page-cache";
import { readVisitor } from "../server/http/visitor";
import { readPageVersion } from "../server/services/page-version";

// The public pages a drop's crowd reads. Never /cart, /checkout, /admin or /auth: those are
// about one visitor through and through.
const CACHED = /^\/(?:|countdown|store|store\/\d+|about|support)$/;

/** The page cache as server.js mounts it: the store's pages, version, visitor and holes. */
export function storePageCache(build: ServerBuild, options: { ttlMs?: number; versionEveryMs?: number } = {}) {
  const handle = createRequestHandler(build, "production");
  return pageCache({
    ...options,
    match: (pathname) => CACHED.test(pathname),
    render: (request) => handle(request, { clientIp: "page-cache" }),
    readVersion: async () => readPageVersion(await getAppContext()),
    readVisitor: async (request) => readVisitor(await getAppContext(), request),
    fragments: renderVisitorFragments,
  });
}

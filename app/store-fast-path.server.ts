import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { dispatchApi } from "../server/api/dispatch";
import type { AppContext } from "../server/context";
import { answerCache } from "../server/http/answer-cache";
import { readPageVersion } from "../server/services/page-version";
import { storePageCache } from "./store-page-cache.server";

/**
 * What server.js answers before Express sees a request (docs/decisions/0017): the cached public
 * pages with their holes filled, and the cached product list. Anything else, or any failure of the
 * caches, goes to `next` (Express) untouched.
 */
export function storeFastPath(build: ServerBuild, ctx: AppContext) {
  const pages = storePageCache(build, ctx);
  const products = answerCache({
    paths: ["/api/products"],
    // Asked without the visitor's Host or cookies: the one copy is everyone's.
    render: (path) => dispatchApi(new Request(`http://localhost${path}`), { clientIp: "answer-cache" }),
    readVersion: () => readPageVersion(ctx),
  });
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => pages(req, res, () => products(req, res, next));
}

import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { dispatchApi } from "#server/api/dispatch";
import { apiWriteDoor, isApiWrite } from "#server/api/write-door";
import type { AppContext } from "#server/context";
import { answerCache } from "#server/http/cache/answer-cache";
import { hasEarlyAccessCookie } from "#server/http/gate/early-access";
import { countPageView } from "#server/http/doors/page-view-door";
import { answerWaitingPoll, isWaitingPoll } from "#server/http/doors/waiting-room-poll";
import { pageVersionMoved, readPageVersions, watchPageVersion } from "#server/http/cache/version-reader";
import { memoDoor } from "./memo-door.server";
import { storePageCache } from "./store-page-cache.server";

/**
 * What server.js answers before Express sees a request (docs/decisions/0017): the cached public
 * pages with their holes filled, the cached product list, the waiting line's polls, the API's
 * writes (decision 0056) and the render memo's kept /checkout and /cart (decision 0060). Anything
 * else, or any failure of the caches, goes to `next` (Express) untouched.
 */
export function storeFastPath(build: ServerBuild, ctx: AppContext) {
  // On PostgreSQL a write by any instance is announced at once (LISTEN page_version): both caches
  // then read the counter at their next request instead of up to 250 ms later. For the process's life.
  watchPageVersion(ctx, pageVersionMoved);
  const pages = storePageCache(build, ctx);
  let last: Awaited<ReturnType<typeof readPageVersions>> | undefined;
  const products = answerCache({
    paths: ["/api/products"],
    // Asked without the visitor's Host or cookies: the one copy is everyone's.
    render: (path) => dispatchApi(new Request(`http://localhost${path}`), { clientIp: "answer-cache" }),
    // Settings and every product: the list shows them all.
    readVersion: async () => {
      last = await readPageVersions(ctx, last);
      return `${last.all}.${last.list}`;
    },
  });
  const apiWrites = apiWriteDoor(ctx);
  const memoised = memoDoor(build, ctx);
  return (req: IncomingMessage, res: ServerResponse, next: () => void, byApp: () => void = () => {}): void => {
    // The rush's bag, rates, order and payment calls: no page, nothing cached, Express not needed.
    if (isApiWrite(req)) {
      byApp();
      return apiWrites(req, res);
    }
    // Not a page: thousands of browsers in the line ask every few seconds (decision 0055).
    if (isWaitingPoll(req)) return answerWaitingPoll(ctx, req, res, next);
    countPageView(ctx, req); // every page passes here, cached or not (decision 0025)
    // A browser with an early-access pass sees products nobody else may (decision 0020): its
    // pages and product list are neither served from nor written to the shared copies; Remix and
    // the API answer it alone. The check is one HMAC of its cookie, no database.
    if (hasEarlyAccessCookie(req.headers.cookie, ctx.config)) return next();
    // /checkout and /cart from the render memo, when their copy is made (decision 0060).
    const memoPage = memoised.pageFor(req);
    if (memoPage) {
      byApp();
      return memoised.answer(req, res, memoPage, next);
    }
    pages(req, res, () => products(req, res, next));
  };
}

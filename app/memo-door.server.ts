import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppLoadContext, LoaderFunctionArgs, ServerBuild } from "@remix-run/node";
import { bodilessRequestOf } from "#server/api/node-exchange";
import type { AppContext } from "#server/context";
import { clientAddressOf, requestUrlOf } from "#server/http/requests/forwarded";
import { memoisedAnswer } from "./page-headers.server";
import { heldCopy, memoKeyOf, type RenderMemoHandle } from "./render-memo.server";
import { storeBusyPage } from "./store-busy.server";

/** The memoised pages the door answers: a path of its own, a leaf route right under the root. */
const PAGES: Record<string, string> = { "/checkout": "routes/checkout", "/cart": "routes/cart" };

type Loader = (args: LoaderFunctionArgs) => unknown;
interface Page {
  id: string;
  handle: RenderMemoHandle;
  loader: Loader;
}

/** What Remix keeps of a loader's result for the page, or null when only Remix may answer it. */
function pageData(result: unknown): { data: unknown } | null {
  if (result === undefined || result instanceof Response) return null;
  if (typeof result === "object" && result !== null && (result as { type?: unknown }).type === "DataWithResponseInit") {
    const { data, init } = result as { data: unknown; init?: ResponseInit | null };
    // A cookie to set or a status of its own: Remix's answer, not a kept copy's.
    if ((init?.status ?? 200) !== 200 || new Headers(init?.headers).has("Set-Cookie")) return null;
    return { data };
  }
  return { data: result };
}

/**
 * The render memo's pages answered ahead of Express and Remix (decision 0060). On drop day every
 * shopper's /checkout is one of a few kept copies (decision 0018), yet each answer went through
 * Express, Remix's request, route matching, data strategy and response streaming: about three
 * quarters of the page's CPU. Here the page's loaders run as Remix runs them (the root's and the
 * page's, with the same request headers, address and load context); their data makes the memo's
 * key, and a copy already made is sent with this answer's nonce and the page's headers, exactly as
 * the render would. Anything else goes on to Remix untouched: a loader's redirect, error, cookie or
 * flash, a copy not made yet, a query. The loaders only read (the bag, the pass, the visitor), so
 * running them again there changes nothing.
 */
export function memoDoor(build: ServerBuild, ctx: AppContext) {
  const rootLoader = build.routes.root?.module.loader as Loader | undefined;
  const pages = new Map<string, Page>();
  for (const [path, id] of Object.entries(PAGES)) {
    const route = build.routes[id];
    const handle = route?.module.handle as RenderMemoHandle | undefined;
    if (rootLoader && route?.parentId === "root" && route.module.loader && handle?.sameDataSamePage) {
      pages.set(path, { id, handle, loader: route.module.loader as Loader });
    }
  }
  const hops = ctx.config.trustProxy;

  async function answer(req: IncomingMessage, res: ServerResponse, page: Page): Promise<boolean> {
    const request = bodilessRequestOf(req, requestUrlOf(req, hops));
    const context: AppLoadContext = { clientIp: clientAddressOf(req, hops) ?? "unknown" };
    const args = { request, context, params: {} };
    const [root, leaf] = (await Promise.all([rootLoader!(args), page.loader(args)])).map(pageData);
    if (!root || !leaf) return false;
    const key = memoKeyOf(new URL(request.url), page.handle, { root: root.data, [page.id]: leaf.data });
    const copy = key ? await heldCopy(key) : undefined;
    if (!copy) return false;
    const headers = new Headers();
    // A database lost while the loaders read: Remix's 503 page.
    storeBusyPage(request, 200, headers);
    const body = await memoisedAnswer(copy, request, headers, context);
    res.statusCode = 200;
    for (const [name, value] of headers) res.setHeader(name, value);
    res.end(body);
    return true;
  }

  return {
    /** The page this request is for, if the door may answer it: a GET of the path itself, no query. */
    pageFor: (req: IncomingMessage): Page | undefined => (req.method === "GET" ? pages.get(req.url ?? "") : undefined),
    answer(req: IncomingMessage, res: ServerResponse, page: Page, next: () => void): void {
      answer(req, res, page).then(
        (answered) => answered || next(),
        // Remix answers it again, with its own error handling.
        () => next(),
      );
    },
  };
}

import type { IncomingMessage } from "node:http";
import type { AppContext } from "#server/context";
import { recordPageView } from "#server/services/reporting/page-views";

type NodeRequest = IncomingMessage & { originalUrl?: string };

/**
 * A page view from node:http's own request, for the fast path ahead of Express (every page
 * passes there, cached or not): header reads and an array push, no await.
 */
export function countPageView(ctx: AppContext, req: NodeRequest): void {
  const headers = req.headers;
  recordPageView(ctx, {
    method: req.method ?? "GET",
    path: req.originalUrl ?? req.url ?? "/",
    host: headers.host,
    cookie: headers.cookie,
    referer: headers.referer,
    userAgent: headers["user-agent"],
    purpose: (headers["sec-purpose"] ?? headers.purpose) as string | undefined,
  });
}

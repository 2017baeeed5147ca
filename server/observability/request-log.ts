import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { giveRequestId } from "#server/http/store-response";
import { requestLines, requestScope } from "./log";
import { requestIdOf } from "./request-id";
import { routePattern } from "./route-pattern";

/** Who answered: the waiting-room gate, the page or answer cache (the fast path), or Express. */
export type AnsweredBy = "gate" | "cache" | "app";

export interface RequestLogOptions {
  /** TRUST_PROXY's hop count: above 0, a proxy's X-Request-Id is kept (request-id.ts). */
  trustProxy: number;
  /** The share of the cache's answers that get a line (LOG_CACHED_SAMPLE); every other answer gets one. */
  cachedSample: number;
  /** Stands in for Math.random in tests. */
  random?: () => number;
}

/** Told when an answer ends: the URL as it arrived, the status (499: the caller hung up first) and seconds taken. */
export type RequestEnded = (req: IncomingMessage, res: ServerResponse, url: string | undefined, status: number, seconds: number) => void;

/**
 * Starts one request's log (issue 27): its id, in the X-Request-Id header of whatever answers it
 * and in every line written while it runs (through `requestScope`), and one line when it ends:
 * method, route pattern, status, milliseconds, who answered, and the worker (every line names it).
 * Returns the scope to run the request in and a setter for who answered it.
 */
export function startRequestLog(req: IncomingMessage, res: ServerResponse, options: RequestLogOptions, ended?: RequestEnded) {
  const requestId = requestIdOf(req, options.trustProxy);
  const started = performance.now();
  // Read now: Express's mounted routers rewrite req.url (/api/cart is /cart inside the API's).
  const url = req.url;
  let answeredBy: AnsweredBy = "gate";
  giveRequestId(res, requestId);
  // One listener for the line and the caller's own count (the metrics): each answer pays for one.
  res.once("close", () => {
    // A caller who hung up before the answer was sent: 499, as nginx logs it.
    const status = res.writableFinished ? res.statusCode : 499;
    ended?.(req, res, url, status, (performance.now() - started) / 1000);
    if (answeredBy === "cache" && res.statusCode < 400 && (options.random ?? Math.random)() >= options.cachedSample) return;
    requestLines.info(
      {
        requestId,
        method: req.method,
        route: routePattern(url),
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        answeredBy,
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      "request",
    );
  });
  return {
    requestId,
    run: (work: () => void) => requestScope.run({ requestId }, work),
    answeredBy: (by: AnsweredBy) => {
      answeredBy = by;
    },
  };
}

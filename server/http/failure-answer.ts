import type { IncomingMessage, ServerResponse } from "node:http";
import { STORE_BUSY_MESSAGE } from "#server/contracts/store-busy";
import { BARE_PAGE_POLICY } from "./security-headers";
import { isConnectionLost, reportConnectionLost, STORE_BUSY_HEADERS } from "./store-busy";
import { NO_STORE } from "./cache/cache-control";
import { logError } from "#server/observability/log";
import { routePattern } from "#server/observability/route-pattern";

/** The REST error's words for a failure on our side (as `toErrorResponse` answers one). */
export const FAILED_MESSAGE = "Something went wrong on our side. Please try again.";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The heading of a refusal's bare page, by its status. */
const REFUSAL_HEADINGS: Record<number, string> = { 405: "Method not allowed" };

/**
 * The page a request that failed before any page could render gets: the words and way back of the
 * store's own error page (app/components/error-pages.tsx), without Remix, which may be what failed.
 * A refusal (4xx) says what was refused (`reason`): the store's own sentence, never the request's text.
 */
export function failedPageHtml(brandName: string, status: number, reason?: string): string {
  const brand = escapeHtml(brandName);
  const busy = status === 503;
  const heading = busy ? "Busy for a moment" : status >= 500 ? "Something went wrong" : (REFUSAL_HEADINGS[status] ?? "Bad request");
  const message = busy
    ? STORE_BUSY_MESSAGE
    : status >= 500
      ? "We hit a snag on our side. Please try again in a moment."
      : escapeHtml(reason ?? "We couldn't complete that request.");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${heading} | ${brand}</title></head><body style="margin:0;min-height:100vh;font-family:system-ui,sans-serif;background:#000;color:#fff;display:flex;align-items:center"><main style="max-width:48rem;margin:0 auto;padding:4rem 1.5rem"><p style="font-size:.75rem;letter-spacing:.3em;text-transform:uppercase;color:#a3a3a3">${brand} · Error ${status}</p><h1 style="font-size:3.5rem;line-height:.9;text-transform:uppercase;margin:1rem 0 0">${heading}</h1><p role="alert" style="color:#a3a3a3;margin-top:1.5rem">${message} Status code: ${status}.</p><p style="margin-top:2.5rem"><a style="display:inline-block;background:#fff;color:#000;padding:.75rem 1.5rem;border-radius:.375rem;text-decoration:none;font-weight:600" href="/">Back to Home</a></p></main></body></html>`;
}

const isApi = (url: string | undefined) => url === "/api" || (url ?? "").startsWith("/api/") || (url ?? "").startsWith("/api?");

/**
 * Answers one request that cannot be served: the REST error JSON on /api, the bare branded page
 * elsewhere; never cached. Whatever the failed code had set on the answer is dropped first. When
 * the answer had already begun, the connection is ended instead: a half-sent page cannot be mended.
 */
export function answerBare(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  brandName: string,
  message = FAILED_MESSAGE,
  extraHeaders: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // The request id stays: it is what the deployer looks the failure up by (issue 27).
  for (const name of res.getHeaderNames()) if (name !== "x-request-id") res.removeHeader(name);
  const api = isApi(req.url);
  const body = api ? JSON.stringify({ message, errors: {} }) : failedPageHtml(brandName, status, status < 500 ? message : undefined);
  res.writeHead(status, {
    "Content-Type": api ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": NO_STORE,
    "X-Content-Type-Options": "nosniff",
    ...extraHeaders,
    ...(api ? {} : { "Content-Security-Policy": BARE_PAGE_POLICY }),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * A request that threw: logged (its method and address JSON-quoted, so no line can be forged),
 * answered 500; or, when the database was out of reach (the gate reads the room from it), 503 with
 * Retry-After as every other door answers then (decision 0041).
 */
export function answerFailure(req: IncomingMessage, res: ServerResponse, error: unknown, brandName: string): void {
  const lost = isConnectionLost(error);
  if (lost) reportConnectionLost(error);
  else
    logError(
      `The request ${JSON.stringify(`${req.method ?? "?"} ${routePattern((req as { originalUrl?: string }).originalUrl ?? req.url)}`)} failed`,
      error,
    );
  try {
    if (lost) answerBare(req, res, 503, brandName, STORE_BUSY_MESSAGE, { ...STORE_BUSY_HEADERS });
    else answerBare(req, res, 500, brandName);
  } catch (failed) {
    logError("The failure answer itself failed", failed);
    res.destroy();
  }
}

/** The status an error carries (http-errors' `status`, or `statusCode`), when it is a refusal (4xx). */
function refusalStatus(error: unknown): number | null {
  if (typeof error !== "object" || error === null) return null;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const value = typeof status === "number" ? status : statusCode;
  return typeof value === "number" && value >= 400 && value < 500 ? value : null;
}

/**
 * Express's last handler (server.js). What Express itself refuses, such as a path whose escapes
 * decode to no text (`/store/%FF`: its router throws a URIError marked 400), is a stranger's
 * mistake: the store's bare 4xx, and no line beyond the request's own. Express's default handler
 * wrote the stack to stderr for each one, a log any bot could fill. Anything else is a failure:
 * logged and answered 500.
 */
export function expressErrors(brandName: string) {
  // Four parameters: how Express tells an error handler from a middleware.
  return (error: unknown, req: IncomingMessage, res: ServerResponse, _next: unknown): void => {
    const status = refusalStatus(error);
    if (status === null) return answerFailure(req, res, error, brandName);
    const message = error instanceof URIError ? "The request's address is not valid." : "The request could not be read.";
    answerBare(req, res, status, brandName, message);
  };
}

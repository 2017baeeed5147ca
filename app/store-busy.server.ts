import type { HandleErrorFunction } from "@remix-run/node";
import { isRouteErrorResponse } from "@remix-run/react";
import { STORE_BUSY_MESSAGE } from "#server/contracts/store-busy";
import { isConnectionLost, reportConnectionLost, STORE_BUSY_HEADERS } from "#server/http/store-busy";
import { logError } from "#server/observability/log";

// Pages whose loader or action met a lost database (decision 0041). Remix reports the error to
// handleError before it renders the page with the same Request, by then with the error reduced to
// "Unexpected Server Error" and the status to 500.
const metLostDatabase = new WeakSet<Request>();

/**
 * What Remix reports of a request no route takes: its router's own 4xx (a method no page answers,
 * 405; a `.data` or `?_data` naming no route, 403 or 404), and its warning for a `?_data` query.
 * A stranger chooses these; the request's line already says what it was answered, and an error
 * line with a stack for each would let a bot bury the store's real errors.
 */
const strangersMistake = (error: unknown) =>
  (isRouteErrorResponse(error) && error.status < 500) ||
  (error instanceof Error && error.message.startsWith("Warning: Single fetch-enabled apps should not be making ?_data requests"));

/**
 * Remix's handleError: a lost database is remembered for the page's render and logged as a
 * warning (a few lines per restart, not one per request); a stranger's mistake is not logged;
 * anything else is logged as Remix does by default (an aborted request's is not).
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (isConnectionLost(error)) {
    metLostDatabase.add(request);
    reportConnectionLost(error);
    return;
  }
  // Thrown by storeBusyPage below to have the page rendered again as a 503.
  if (error instanceof Response && metLostDatabase.has(request)) return;
  if (strangersMistake(error)) return;
  if (!request.signal.aborted)
    logError(
      "A page failed",
      isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error,
    );
};

/**
 * For the document render (entry.server's default export), before anything is rendered: a page
 * whose data met a lost database is not rendered as a 500. The first time, this throws a 503
 * Response, which Remix renders again at the same error boundary as a route error response
 * (`isRouteErrorResponse`, status 503: the branded error page says to try again); on that second
 * render it adds Retry-After and keeps the answer out of every cache.
 */
export function storeBusyPage(request: Request, status: number, headers: Headers): void {
  if (!metLostDatabase.has(request)) return;
  if (status !== 503) throw new Response(STORE_BUSY_MESSAGE, { status: 503, statusText: "Service Unavailable" });
  for (const [name, value] of Object.entries(STORE_BUSY_HEADERS)) headers.set(name, value);
}

/** A client navigation's data (`.data`) that met a lost database: 503 and Retry-After as well. */
export function storeBusyData(request: Request, response: Response): Response {
  if (!metLostDatabase.has(request)) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(STORE_BUSY_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: 503, statusText: "Service Unavailable", headers });
}

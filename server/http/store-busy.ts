import { isConnectionLost } from "#db/connection-lost";
import { STORE_BUSY_MESSAGE, STORE_BUSY_RETRY_AFTER_SECONDS } from "#server/contracts/store-busy";
import { NO_STORE } from "./cache/cache-control";
import { logWarning } from "#server/observability/log";

export { isConnectionLost };

/** The headers of every "store busy" answer, page or JSON. */
export const STORE_BUSY_HEADERS = { "Retry-After": String(STORE_BUSY_RETRY_AFTER_SECONDS), "Cache-Control": NO_STORE } as const;

/** The API's answer when the database could not be reached: 503, Retry-After, the REST error body. */
export function storeBusyJson(): Response {
  return Response.json({ message: STORE_BUSY_MESSAGE, errors: {} }, { status: 503, headers: STORE_BUSY_HEADERS });
}

const REPORT_EVERY_MS = 5_000;
let reportedAt = -Infinity;
let unreported = 0;

/**
 * Logs that requests met a lost database connection: one line per few seconds with how many, not
 * one per request (a restart under a rush fails hundreds at once), and as a warning, since nothing
 * is wrong with the code and the pool reconnects by itself.
 */
export function reportConnectionLost(error: unknown): void {
  unreported++;
  const now = Date.now();
  if (now - reportedAt < REPORT_EVERY_MS) return;
  reportedAt = now;
  const message = error instanceof Error ? error.message : String(error);
  logWarning(`The database could not be reached (${message}): ${unreported} request(s) answered 503 since the last report.`);
  unreported = 0;
}

/**
 * PostgreSQL's SQLSTATEs for a server that went away or is not taking connections yet: an
 * administrator's or a restart's 57P01, a crashed server's 57P02, a server still starting or
 * shutting down (57P03), the connection exceptions of class 08, and a server full for a moment
 * (53300, when every instance reconnects at once after a restart).
 */
const SERVER_GONE = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08004", "08006", "08007", "53300"]);

/** The socket's own failures (node's error codes): the server is down, restarting or unreachable. */
const SOCKET_GONE = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/**
 * node-postgres's own words when a connection ended under a query ("Connection terminated
 * unexpectedly"), a query was sent on one that had already failed ("Client has encountered a
 * connection error and is not queryable"), or opening one outlived its bound ("timeout expired",
 * CONNECT_TIMEOUT_MS in db/postgres.ts).
 */
const PG_GONE = /^Connection terminated|is not queryable$|^timeout expired$/;

/**
 * Whether a failure means the database could not be reached for now (PostgreSQL restarting,
 * failing over, or an administrator ending our sessions), as opposed to a fault of the request or
 * the code: the one that is answered 503 with Retry-After rather than 500, since the same request
 * a few seconds later will very likely succeed (the pool opens new connections by itself). Looks
 * through `cause` chains and AggregateErrors (a host with several addresses refuses on each).
 * SQLite's errors never match: its file does not go away.
 *
 * A socket's code counts only on the error itself (as node-postgres rejects with it), not as the
 * `cause` of another: a vendor's `fetch failed` caused by ECONNRESET is the vendor's outage, not
 * the store's database.
 */
export function isConnectionLost(error: unknown): boolean {
  return lost(error, 0, true);
}

function lost(error: unknown, depth: number, socketCounts: boolean): boolean {
  if (depth > 5 || typeof error !== "object" || error === null) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && (SERVER_GONE.has(code) || (socketCounts && SOCKET_GONE.has(code)))) return true;
  if (typeof message === "string" && PG_GONE.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => lost(inner, depth + 1, socketCounts))) return true;
  return lost(cause, depth + 1, false);
}

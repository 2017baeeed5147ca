import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "#server/context";
import { PRIVATE_NO_STORE } from "#server/http/cache/cache-control";
import { PLACE_COOKIE, cookieValue } from "#server/http/gate/waiting-room-cookies";
import { waitingStatus } from "#server/services/drop/waiting-room";

/**
 * GET /api/waiting-room for a place still waiting, answered on node's own request ahead of Express
 * (issue 24). Every browser in the line asks every 5 s, and through Express, the fetch Request and
 * the API table a poll cost about 0.7 ms of CPU: two cores answered a line of 14,000, and the
 * polls of 20,000 took the CPU the admitted shoppers needed. Here it is the same answer as the API
 * route's (waitingStatus: the room read within the second, one primary-key read, no write), with
 * the same headers. Anything else (no place, a turn, the draw, a HEAD, a failure) goes to `next`,
 * where the API route answers it in full.
 */
export function answerWaitingPoll(ctx: AppContext, req: IncomingMessage, res: ServerResponse, next: () => void): void {
  const placeId = cookieValue(req.headers.cookie, PLACE_COOKIE);
  if (!placeId) return next();
  waitingStatus(ctx, placeId).then(
    (waiting) => {
      if (!waiting) return next();
      const body = JSON.stringify(waiting.status);
      res.writeHead(200, {
        "Cache-Control": PRIVATE_NO_STORE,
        "Content-Type": "application/json",
        "Content-Length": String(Buffer.byteLength(body)),
      });
      res.end(body);
    },
    // The API route answers a failure (503 when the database is away) as it answers any.
    () => next(),
  );
}

/** Whether a request is a poll of the line: GET of the exact path, any query. */
export function isWaitingPoll(req: IncomingMessage): boolean {
  if (req.method !== "GET") return false;
  const url = req.url ?? "";
  return url === "/api/waiting-room" || url.startsWith("/api/waiting-room?");
}

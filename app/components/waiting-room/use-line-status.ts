import { useEffect, useState } from "react";
import type { WaitingRoomStatus } from "#server/contracts/waiting-room";

/** How often a page with JavaScript asks where its place stands: light enough for thousands of browsers. */
export const POLL_MS = 5_000;

/**
 * The place's status, kept fresh from GET /api/waiting-room without reloading the page. A browser
 * whose place is gone (its pass ran out) joins again with POST. The answer that says "admitted"
 * brings the pass cookie with it.
 */
export function useLineStatus(initial: WaitingRoomStatus): WaitingRoomStatus {
  const [status, setStatus] = useState(initial);
  const done = status.state === "admitted" || status.state === "closed";

  useEffect(() => {
    if (done) return;
    let stopped = false;
    const ask = async () => {
      try {
        let response = await fetch("/api/waiting-room", { headers: { Accept: "application/json" } });
        let next = (await response.json()) as WaitingRoomStatus;
        if (next.state === "waiting" && next.position === null) {
          response = await fetch("/api/waiting-room", { method: "POST", headers: { Accept: "application/json" } });
          if (response.ok) next = (await response.json()) as WaitingRoomStatus;
        }
        if (!stopped && response.ok) setStatus(next);
      } catch {
        // A missed poll is retried at the next tick; the place is kept on the server.
      }
    };
    const timer = setInterval(() => void ask(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [done]);

  return status;
}

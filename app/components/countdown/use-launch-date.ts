import { useEffect, useState } from "react";

/** docs/spec.md §9: the countdown date is polled every 30 seconds. */
export const POLL_MS = 30_000;
export const COUNTDOWN_DATE_URL = "/api/countdown-date";

function dateFrom(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const date = (body as { date?: unknown }).date;
  return typeof date === "string" && !Number.isNaN(Date.parse(date)) ? date : null;
}

/**
 * The launch date, starting from the loader's and following GET /api/countdown-date, so an open
 * page picks up a date the admin moves. A failed poll keeps the last known date.
 */
export function useLaunchDate(initial: string, url = COUNTDOWN_DATE_URL): string {
  const [date, setDate] = useState(initial);

  // A revalidated loader (after the sign-up form posts, say) brings the freshest date too.
  useEffect(() => setDate(initial), [initial]);

  useEffect(() => {
    let live = true;
    const poll = async () => {
      try {
        const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
        if (!response.ok) return;
        const next = dateFrom(await response.json());
        if (live && next) setDate(next);
      } catch {
        // Offline for a moment: the countdown carries on with the date it has.
      }
    };
    const timer = setInterval(poll, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [url]);

  return date;
}

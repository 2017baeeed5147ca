import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** How often an open draw's counts are asked again while the page is in view. */
export const LIVE_DRAWS_MS = 10_000;

/**
 * Keeps the page's loader data fresh while `live` (a draw taking entries or with claims pending):
 * asks again every ten seconds while the tab is visible, once at once when it comes back into
 * view, never while hidden or while a request is still out. Without JavaScript the page shows
 * what it had at load.
 */
export function useLiveDraws(live: boolean): void {
  const revalidator = useRevalidator();
  const state = useRef(revalidator);
  state.current = revalidator;
  useEffect(() => {
    if (!live) return;
    const ask = () => {
      if (document.visibilityState === "visible" && state.current.state === "idle") state.current.revalidate();
    };
    const timer = window.setInterval(ask, LIVE_DRAWS_MS);
    document.addEventListener("visibilitychange", ask);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", ask);
    };
  }, [live]);
}

/** Runs `then` once the page has loaded and the main thread is idle (decision 0029). */
export function whenIdle(then: () => void): () => void {
  let idle: number | undefined;
  const schedule = () => {
    idle =
      typeof window.requestIdleCallback === "function"
        ? window.requestIdleCallback(then, { timeout: 4000 })
        : window.setTimeout(then, 1000);
  };
  if (document.readyState === "complete") schedule();
  else window.addEventListener("load", schedule, { once: true });
  return () => {
    window.removeEventListener("load", schedule);
    if (idle === undefined) return;
    if (typeof window.cancelIdleCallback === "function") window.cancelIdleCallback(idle);
    else window.clearTimeout(idle);
  };
}

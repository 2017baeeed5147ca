import { performance } from "node:perf_hooks";

/** Busy means the event loop was working this share of a short sample (node's event-loop utilisation). */
const BUSY_ABOVE = 0.5;
const SAMPLE_MS = 10;
const BUSY_PAUSE_MS = 100;
/**
 * Once a sample found the loop idle, orders follow back to back for this long before the next
 * sample: sampling before each order made 200 orders take 3 s of waiting, and the other processes'
 * idle upkeep over those seconds cost as much CPU as a tenth of the orders' own. A shopper who
 * arrives meanwhile is answered between the order's statements, as before.
 */
export const TRUST_IDLE_MS = 50;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Whether the event loop was busy with other work (requests) over a short sample. */
async function loopBusy(): Promise<boolean> {
  const start = performance.eventLoopUtilization();
  await sleep(SAMPLE_MS);
  return performance.eventLoopUtilization(start).utilization >= BUSY_ABOVE;
}

export interface ShopperYieldOptions {
  /** The order's deadline: its payment time (ISO) plus this. */
  maxDeferMs: number;
  /** The store's clock, which stamped the payment. */
  now: () => number;
  busy?: () => Promise<boolean>;
  pause?: (ms: number) => Promise<void>;
  /** A monotonic clock for the idle window. */
  monotonic?: () => number;
}

/**
 * On drop day the CPU belongs to the shoppers still buying: before each order the fulfilment job
 * waits while the event loop is busy answering them, but never past the order's deadline.
 */
export function shopperYield({
  maxDeferMs,
  now,
  busy = loopBusy,
  pause = sleep,
  monotonic = () => performance.now(),
}: ShopperYieldOptions): (paidAt: string) => Promise<void> {
  let idleSeenAt = -Infinity;
  return async (paidAt) => {
    if (monotonic() - idleSeenAt < TRUST_IDLE_MS) return;
    const deadline = Date.parse(paidAt) + maxDeferMs;
    for (;;) {
      if (!(await busy())) {
        idleSeenAt = monotonic();
        return;
      }
      if (now() >= deadline) return;
      await pause(BUSY_PAUSE_MS);
    }
  };
}

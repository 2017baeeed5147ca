import crypto from "node:crypto";
import type { AppContext } from "#server/context";
import { fulfilDueOrders } from "./fulfilment";
import { holdLease, releaseLease } from "#server/services/jobs/leases";
import { forgetNudge, wakeOnNudge } from "./fulfilment-nudge";
import { processHolder } from "#server/services/jobs/process-holder";
import { logError } from "#server/observability/log";
import { shopperYield } from "./shopper-yield";

/**
 * The fulfilment job (decision 0027): a paid order's confirmation e-mail and shipping label are
 * bought here, not inside the payment's answer. Every process runs the job; the one holding the
 * `fulfilment` lease works, so the orders of every worker (and machine) on the database are picked
 * up by one of them. Each order is still claimed on its own (fulfilment.ts), so the admin's Buy
 * Label Again, or a leader that lost its lease mid-order, never buys a second label.
 */

/** How often the leader looks for paid orders when nothing woke it (a payment in another worker). */
export const FULFIL_POLL_MS = 1_000;
/** The lease is renewed at most this often, and lasts long enough for four renewals to be missed. */
const RENEW_EVERY_MS = 5_000;
const LEASE_MS = 4 * RENEW_EVERY_MS;
/**
 * On drop day the CPU belongs to the shoppers still buying: while this process's event loop is busy
 * answering them, an order waits, but never longer than this after its payment (shopper-yield.ts).
 */
export const FULFIL_MAX_DEFER_MS = 10_000;

export interface FulfilmentJob {
  /** Ends the job after the order in hand, and gives the lease up so another process takes over at once. */
  stop(): Promise<void>;
}

/** Starts the job in this process (server.js, one per worker). */
export function startFulfilmentJob(
  ctx: AppContext,
  { holder = processHolder, pollMs = FULFIL_POLL_MS, maxDeferMs = FULFIL_MAX_DEFER_MS } = {},
): FulfilmentJob {
  let stopped = false;
  let leading = false;
  let triedAt = -Infinity;
  let wakeNow: (() => void) | null = null;
  // This job's claim on each order (fulfilment.ts claimOrder): its own, even beside another job with the same holder.
  const claimHolder = `${holder}:fulfil:${crypto.randomUUID().slice(0, 8)}`;
  const yieldToShoppers = shopperYield({ maxDeferMs, now: () => ctx.clock.now().getTime() });

  async function leads(): Promise<boolean> {
    const now = ctx.clock.now().getTime();
    if (now - triedAt < RENEW_EVERY_MS) return leading;
    triedAt = now;
    leading = await holdLease(ctx, "fulfilment", holder, LEASE_MS).catch(() => false);
    return leading;
  }

  function poll(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(wake, pollMs);
      timer.unref();
      function wake() {
        clearTimeout(timer);
        forgetNudge(wake);
        wakeNow = null;
        resolve();
      }
      wakeNow = wake;
      wakeOnNudge(wake);
    });
  }

  async function run(): Promise<void> {
    while (!stopped) {
      let worked = 0;
      try {
        if (await leads()) {
          worked = await fulfilDueOrders(ctx, {
            beforeEach: (order) => (stopped ? Promise.resolve() : yieldToShoppers(order.paidAt)),
            stillRunning: () => !stopped,
            holder: claimHolder,
          });
        }
      } catch (error) {
        logError("The fulfilment job failed", error);
      }
      // More may be waiting behind a full pass; otherwise look again at the next poll or nudge.
      if (!stopped && worked === 0) await poll();
    }
  }

  const running = run();
  return {
    async stop() {
      stopped = true;
      wakeNow?.();
      await running;
      if (leading) await releaseLease(ctx, "fulfilment", holder).catch(() => {});
    },
  };
}

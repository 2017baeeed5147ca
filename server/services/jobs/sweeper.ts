import type { AppContext } from "#server/context";
import { releaseExpiredHolds } from "#server/services/cart/holds";
import { rollUpEvents } from "#server/services/reporting/event-rollup";
import { holdLeadership, resignLeadership } from "./leadership";
import { deleteExpiredLeases } from "./leases";
import { processHolder } from "./process-holder";
import { rollUpOrders } from "#server/services/reporting/order-rollup";
import { removeUnusedMedia } from "#server/services/catalog/media-uploads";
import { removeAbandonedImages } from "#server/services/catalog/product-image-files";
import { deleteExpiredRateLimits } from "#server/services/security/rate-limit";
import { deleteExpiredSessions } from "#server/services/accounts/sessions";
import { confirmStrandedPayments } from "#server/services/checkout/stranded-payments";
import { logError } from "#server/observability/log";
import { flushAlertDigests } from "#server/services/alerts/alerts";
import { checkFulfilmentLag } from "#server/services/alerts/fulfilment-lag";
import { drawDueDraws, mailDrawResults, passDownLapsedClaims } from "#server/services/drop/draw-run";

let running = false;
let mediaSweptAt = 0;
const MEDIA_SWEEP_EVERY_MS = 60 * 60_000;

/** Sweeps run every 30 s (server.js); a leader that misses three in a row is taken over. */
export const SWEEP_EVERY_MS = 30_000;
const LEADERSHIP = "sweeper";
const LEASE_MS = 3 * SWEEP_EVERY_MS;

/**
 * The periodic chores of the store (server.js runs this every 30 s in every worker; the one holding
 * the sweeper lease does the work, so chores never run twice at once across workers or machines):
 * units held by buyers who walked away go back on the shelf even when nobody checks out, payments nobody
 * confirmed (no webhook, a closed tab) are confirmed, and sessions past their expiry are deleted (a session is only
 * removed on use otherwise, so an admin who never comes back would stay in the table for ever);
 * once an hour, uploads nothing uses any more are deleted.
 * A sweep slowed by a provider is never overlapped by the next. Expired rate-limit windows are
 * deleted. Returns whether this holder swept.
 */
export async function sweep(ctx: AppContext, holder: string = processHolder): Promise<boolean> {
  if (running) return false;
  running = true;
  // Checked (on SQLite: the lease renewed) before each chore: a sweep slowed by a provider keeps
  // its lease instead of being joined by a second sweeper once the lease would have run out, and a
  // leader whose PostgreSQL connection died stops at the next chore.
  const stillLeader = () => holdLeadership(ctx, LEADERSHIP, holder, LEASE_MS).catch(() => false);
  try {
    if (!(await stillLeader())) return false;
    await releaseExpiredHolds(ctx).catch((error: unknown) => logError("Releasing expired holds failed", error));
    if (!(await stillLeader())) return true;
    // What expiring left pending had been paid: confirm it rather than lose it (the fulfilment job,
    // fulfilment-job.ts, then sends its e-mail and buys its label).
    await confirmStrandedPayments(ctx).catch((error: unknown) => logError("Confirming stranded payments failed", error));
    if (!(await stillLeader())) return true;
    // Draws whose entries closed are drawn, lapsed wins pass down, owed results are mailed (decision 0047).
    await drawDueDraws(ctx).catch((error: unknown) => logError("Drawing closed draws failed", error));
    await passDownLapsedClaims(ctx).catch((error: unknown) => logError("Passing lapsed draw wins on failed", error));
    await mailDrawResults(ctx).catch((error: unknown) => logError("Mailing draw results failed", error));
    if (!(await stillLeader())) return true;
    await deleteExpiredSessions(ctx).catch((error: unknown) => logError("Deleting expired sessions failed", error));
    await deleteExpiredRateLimits(ctx).catch((error: unknown) => logError("Deleting expired rate limits failed", error));
    await deleteExpiredLeases(ctx).catch((error: unknown) => logError("Deleting expired leases failed", error));
    // The funnel's hourly roll-ups, and raw events past 30 days compacted into them (decision 0025).
    if (await stillLeader()) await rollUpEvents(ctx, stillLeader).catch((error: unknown) => logError("Rolling up events failed", error));
    if (await stillLeader()) await rollUpOrders(ctx).catch((error: unknown) => logError("Rolling up orders failed", error));
    // Alerts (issue 27): fulfilment running late, and the digests of alerts held in a window.
    if (await stillLeader()) {
      await checkFulfilmentLag(ctx).catch((error: unknown) => logError("Checking the fulfilment lag failed", error));
      await flushAlertDigests(ctx).catch((error: unknown) => logError("Sending alert digests failed", error));
    }
    const now = ctx.clock.now().getTime();
    if (now - mediaSweptAt >= MEDIA_SWEEP_EVERY_MS && (await stillLeader())) {
      mediaSweptAt = now;
      await removeUnusedMedia(ctx).catch((error: unknown) => logError("Removing unused media failed", error));
      await removeAbandonedImages(ctx).catch((error: unknown) => logError("Removing abandoned images failed", error));
    }
    return true;
  } finally {
    running = false;
  }
}

/** On a graceful stop: another worker takes the chores over at its next sweep. */
export async function resignSweeper(ctx: AppContext, holder: string = processHolder): Promise<void> {
  await resignLeadership(ctx, LEADERSHIP, holder);
}

import type { AppContext } from "#server/context";
import { FULFIL_MAX_DEFER_MS } from "#server/services/fulfilment/fulfilment-job";
import { raiseAlert } from "./alerts";

/**
 * A paid order waits at most FULFIL_MAX_DEFER_MS for its first try (fulfilment-job.ts); one still
 * untried this long after its payment means no fulfilment job is working (no worker holds the
 * lease, or it is stuck). Orders whose tries failed are the label and e-mail alerts' business.
 */
export const FULFILMENT_BOUND_MS = 6 * FULFIL_MAX_DEFER_MS;

/** The sweeper's check (issue 27): alerts when the oldest untried paid order is past the bound. Returns its age in ms, or null. */
export async function checkFulfilmentLag(ctx: AppContext): Promise<number | null> {
  const now = ctx.clock.now().getTime();
  const oldest = await ctx.db
    .selectFrom("orders")
    .select((eb) => [eb.fn.min("paidAt").as("paidAt"), eb.fn.countAll<number>().as("count")])
    .where("paidAt", "is not", null)
    .where("fulfilledAt", "is", null)
    .where("fulfilAttempts", "=", 0)
    .where("paidAt", "<=", new Date(now - FULFILMENT_BOUND_MS).toISOString())
    .executeTakeFirst();
  if (!oldest?.paidAt) return null;
  const age = now - Date.parse(oldest.paidAt);
  await raiseAlert(
    ctx,
    "fulfilment-behind",
    `${Number(oldest.count)} paid order(s) have waited more than ${FULFILMENT_BOUND_MS / 1000} s for their e-mail and label; the oldest ${Math.round(age / 1000)} s. Is a worker running the fulfilment job?`,
  );
  return age;
}

import { sql } from "kysely";
import type { SubscriberPoint } from "#server/contracts/reports";
import type { AppContext } from "#server/context";
import { bucketOf, bucketStarts, type ReportRange } from "./report-range";

/**
 * Sign-ups and unsubscribes per store day (per hour for a one-day range), and the list's size at
 * the end of each. A subscriber who comes back is signed up again on the same row (the list keeps
 * no history), so the earlier sign-up and its unsubscribe are no longer counted.
 */
export async function subscriberSeries(ctx: AppContext, range: ReportRange): Promise<SubscriberPoint[]> {
  const start = range.start.toISOString();
  const end = range.end.toISOString();
  const [joined, left, before] = await Promise.all([
    sql<{ h: string; n: number }>`
      SELECT substr(subscribed_at, 1, 13) AS h, count(*) AS n FROM subscribers
      WHERE subscribed_at >= ${start} AND subscribed_at < ${end} GROUP BY substr(subscribed_at, 1, 13)`.execute(ctx.db),
    sql<{ h: string; n: number }>`
      SELECT substr(unsubscribed_at, 1, 13) AS h, count(*) AS n FROM subscribers
      WHERE unsubscribed_at >= ${start} AND unsubscribed_at < ${end} GROUP BY substr(unsubscribed_at, 1, 13)`.execute(ctx.db),
    sql<{ n: number }>`
      SELECT count(*) AS n FROM subscribers
      WHERE subscribed_at < ${start} AND (unsubscribed_at IS NULL OR unsubscribed_at >= ${start})`.execute(ctx.db),
  ]);
  const starts = bucketStarts(range);
  const joins = starts.map(() => 0);
  const leaves = starts.map(() => 0);
  for (const row of joined.rows) joins[bucketOf(starts, `${row.h}:00:00.000Z`)]! += Number(row.n);
  for (const row of left.rows) leaves[bucketOf(starts, `${row.h}:00:00.000Z`)]! += Number(row.n);
  let total = Number(before.rows[0]?.n ?? 0);
  return starts.map((t, i) => {
    total += joins[i]! - leaves[i]!;
    return { t, joined: joins[i]!, left: leaves[i]!, total };
  });
}

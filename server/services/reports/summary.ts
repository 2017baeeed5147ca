import { sql } from "kysely";
import type { SeriesPoint, Summary } from "../../contracts/reports";
import type { AppContext } from "../../context";
import { bucketOf, bucketStarts, type ReportRange } from "../report-range";
import { funnelFor } from "./funnel";

const dollars = (cents: number) => Math.round(cents) / 100;
const testFilter = (includeTest: boolean) => (includeTest ? sql`` : sql`AND is_test = 0`);

/**
 * Paid orders placed in the range, per bucket (hours for one day, else store days): counted by
 * UTC hour in the database (the report index covers it), put in buckets here.
 */
export async function orderSeries(ctx: AppContext, range: ReportRange, includeTest: boolean): Promise<SeriesPoint[]> {
  const { rows } = await sql<{ h: string; n: number; cents: number }>`
    SELECT substr(created_at, 1, 13) AS h, count(*) AS n, sum(total_cents) AS cents FROM orders
    WHERE created_at >= ${range.start.toISOString()} AND created_at < ${range.end.toISOString()}
      AND paid_at IS NOT NULL ${testFilter(includeTest)}
    GROUP BY substr(created_at, 1, 13)`.execute(ctx.db);
  const starts = bucketStarts(range);
  const cents = starts.map(() => 0);
  const orders = starts.map(() => 0);
  for (const row of rows) {
    const i = bucketOf(starts, `${row.h}:00:00.000Z`);
    orders[i]! += Number(row.n);
    cents[i]! += Number(row.cents);
  }
  return starts.map((t, i) => ({ t, orders: orders[i]!, revenue: dollars(cents[i]!) }));
}

/** Money refunded in the range (by when it was refunded), and how many refunds. */
export async function refundsIn(ctx: AppContext, range: ReportRange, includeTest: boolean): Promise<{ count: number; cents: number }> {
  const row = await ctx.db
    .selectFrom("refunds")
    .innerJoin("orders", "orders.id", "refunds.orderId")
    .select((eb) => [eb.fn.countAll<number>().as("n"), eb.fn.sum<number>("refunds.amountCents").as("cents")])
    .where("refunds.createdAt", ">=", range.start.toISOString())
    .where("refunds.createdAt", "<", range.end.toISOString())
    .where("refunds.status", "not in", ["failed", "canceled"])
    .$if(!includeTest, (qb) => qb.where("orders.isTest", "=", 0))
    .executeTakeFirstOrThrow();
  return { count: Number(row.n ?? 0), cents: Number(row.cents ?? 0) };
}

/**
 * The summary of a range: paid orders placed in it and their revenue (before refunds), the money
 * refunded in it, the average order, the funnel and the series. Test orders are left out unless
 * `includeTest`.
 */
export async function summaryFor(ctx: AppContext, range: ReportRange, includeTest = false): Promise<Summary> {
  const [series, refunds, funnel] = await Promise.all([
    orderSeries(ctx, range, includeTest),
    refundsIn(ctx, range, includeTest),
    funnelFor(ctx, { from: range.start, to: range.end, includeTest }),
  ]);
  const orders = series.reduce((sum, point) => sum + point.orders, 0);
  const revenueCents = Math.round(series.reduce((sum, point) => sum + point.revenue * 100, 0));
  return {
    orders,
    revenue: dollars(revenueCents),
    refunds: dollars(refunds.cents),
    averageOrder: orders === 0 ? 0 : dollars(Math.round(revenueCents / orders)),
    funnel,
    series,
  };
}

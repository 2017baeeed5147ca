import { toDollars } from "#server/contracts/money";
import type { SeriesPoint, Summary } from "#server/contracts/reports";
import type { AppContext } from "#server/context";
import { bucketOf, bucketStarts, type ReportRange } from "./report-range";
import { eventSteps, orderHours, orderSteps, type OrderHour } from "./funnel";

/** Paid orders per bucket of the range (hours for one day, else store days), from the order hours. */
export function seriesOf(range: ReportRange, hours: OrderHour[]): { series: SeriesPoint[]; cents: number } {
  const starts = bucketStarts(range);
  const cents = starts.map(() => 0);
  const orders = starts.map(() => 0);
  for (const hour of hours) {
    const i = bucketOf(starts, hour.hour);
    orders[i]! += hour.paid;
    cents[i]! += hour.paidCents;
  }
  return {
    series: starts.map((t, i) => ({ t, orders: orders[i]!, revenue: toDollars(cents[i]!) })),
    cents: cents.reduce((a, b) => a + b, 0),
  };
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
 * `includeTest`. The orders are read once (order hours) for the series and the funnel both.
 */
export async function summaryFor(ctx: AppContext, range: ReportRange, includeTest = false): Promise<Summary> {
  const [hours, refunds, events] = await Promise.all([
    orderHours(ctx, range.start, range.end, includeTest),
    refundsIn(ctx, range, includeTest),
    eventSteps(ctx, range.start, range.end),
  ]);
  const { series, cents } = seriesOf(range, hours);
  const { paid: orders } = orderSteps(hours);
  return {
    orders,
    revenue: toDollars(cents),
    refunds: toDollars(refunds.cents),
    averageOrder: orders === 0 ? 0 : toDollars(cents / orders),
    funnel: { ...events, ...orderSteps(hours) },
    series,
  };
}

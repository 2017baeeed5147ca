import { RANGE_PRESETS, type DashboardQuery, type DashboardView, type RangePreset } from "#server/contracts/reports";
import { toDollars } from "#server/contracts/money";
import { storeToday } from "#server/contracts/store-time";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";
import { presetRange, previousRange, type ReportRange } from "./report-range";
import { droppedEvents } from "./funnel";
import { subscriberSeries } from "./subscribers";
import { refundsIn, summaryFor } from "./summary";
import { topProducts } from "./top-products";

export interface Overview {
  subscribers: number;
  products: number;
  orders: number;
  /** Dollars taken: paid orders less their refunds. */
  revenue: number;
}

/**
 * Money that came in, in cents. Test orders (placed in test mode, paid with a test card) took
 * none, so they are left out, as are orders nobody paid.
 */
export async function revenueCents(ctx: AppContext): Promise<number> {
  const row = await ctx.db
    .selectFrom("orders")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb("totalCents", "-", eb.ref("refundAmountCents"))), eb.lit(0)).as("cents"))
    .where("paidAt", "is not", null)
    .where("isTest", "=", 0)
    .executeTakeFirstOrThrow();
  return Number(row.cents);
}

/** The headline counts an admin sees first. */
export async function getOverview(ctx: AppContext): Promise<Overview> {
  const count = async (table: "subscribers" | "products" | "orders") => {
    const row = await ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const [subscribers, products, orders, revenue] = await Promise.all([
    count("subscribers"),
    count("products"),
    count("orders"),
    revenueCents(ctx),
  ]);
  return { subscribers, products, orders, revenue: toDollars(revenue) };
}

export const DEFAULT_PRESET: RangePreset = "7d";

/**
 * The dashboard for a range (today, the last 7 or 30 days, or from/to), against the period of the
 * same length just before. A custom range that cannot be read shows the default range and says
 * why, rather than failing the page.
 */
export async function getDashboard(ctx: AppContext, query: DashboardQuery): Promise<DashboardView> {
  const today = storeToday(ctx.clock.now());
  const includeTest = query.includeTest === true;
  let preset: RangePreset = RANGE_PRESETS.find((p) => p === query.range) ?? (query.from || query.to ? "custom" : DEFAULT_PRESET);
  let range: ReportRange;
  let error: string | null = null;
  try {
    range = presetRange(preset, today, { from: query.from, to: query.to });
  } catch (failure) {
    if (!(failure instanceof Invalid)) throw failure;
    error = failure.message;
    preset = DEFAULT_PRESET;
    range = presetRange(preset, today, {});
  }
  const previous = previousRange(range);
  const [summary, previousSummary, refunds, subscribers, top, rollup, dropped] = await Promise.all([
    summaryFor(ctx, range, includeTest),
    summaryFor(ctx, previous, includeTest),
    refundsIn(ctx, range, includeTest),
    subscriberSeries(ctx, range),
    topProducts(ctx, range, includeTest),
    ctx.db.selectFrom("eventRollup").select("rolledAt").where("id", "=", 1).executeTakeFirst(),
    droppedEvents(ctx, range.start, range.end),
  ]);
  return {
    range: { preset, from: range.from, to: range.to, bucket: range.bucket },
    previous: { from: previous.from, to: previous.to },
    includeTest,
    error,
    today,
    summary,
    previousSummary,
    refundCount: refunds.count,
    subscribers,
    topProducts: top,
    eventsAsOf: rollup?.rolledAt ?? null,
    eventsDropped: dropped,
  };
}

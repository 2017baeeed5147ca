import { sql } from "kysely";
import type { Funnel } from "../../contracts/reports";
import type { AppContext } from "../../context";

export interface FunnelQuery {
  /** [from, to): instants; events are counted by the hour, the hours that start in the span. */
  from: Date | string;
  to: Date | string;
  /** Count test orders (placed in test mode) too; off by default. */
  includeTest?: boolean;
}

const iso = (instant: Date | string) => (typeof instant === "string" ? new Date(instant).toISOString() : instant.toISOString());

export interface OrderHour {
  /** The UTC hour's start, ISO. */
  hour: string;
  placed: number;
  paid: number;
  paidCents: number;
}

/**
 * Orders placed in [from, to) per UTC hour: how many, how many of them are paid and their totals.
 * One pass over the report index (orders_report covers every column read), shared by the funnel
 * and the summary's series.
 */
export async function orderHours(ctx: AppContext, from: Date | string, to: Date | string, includeTest = false): Promise<OrderHour[]> {
  const { rows } = await sql<{ h: string; placed: number; paid: number; cents: number | null }>`
    SELECT substr(created_at, 1, 13) AS h, count(*) AS placed, count(paid_at) AS paid,
      sum(CASE WHEN paid_at IS NULL THEN 0 ELSE total_cents END) AS cents
    FROM orders WHERE created_at >= ${iso(from)} AND created_at < ${iso(to)} ${includeTest ? sql`` : sql`AND is_test = 0`}
    GROUP BY substr(created_at, 1, 13)`.execute(ctx.db);
  return rows.map((row) => ({
    hour: `${row.h}:00:00.000Z`,
    placed: Number(row.placed),
    paid: Number(row.paid),
    paidCents: Number(row.cents ?? 0),
  }));
}

/** The funnel's first three steps, from the hourly roll-ups of the hours starting in [from, to). */
export async function eventSteps(
  ctx: AppContext,
  from: Date | string,
  to: Date | string,
): Promise<Pick<Funnel, "visitors" | "bagged" | "checkout">> {
  const metrics = await ctx.db
    .selectFrom("eventHours")
    .select((eb) => ["metric", eb.fn.sum<number>("count").as("n")])
    .where("hour", ">=", iso(from))
    .where("hour", "<", iso(to))
    .where("metric", "in", ["visitors", "bagged", "checkout_sessions"])
    .groupBy("metric")
    .execute();
  const metric = (name: string) => Number(metrics.find((row) => row.metric === name)?.n ?? 0);
  return { visitors: metric("visitors"), bagged: metric("bagged"), checkout: metric("checkout_sessions") };
}

/** The last two steps from the order hours of the same span. */
export function orderSteps(hours: OrderHour[]): Pick<Funnel, "ordered" | "paid"> {
  return {
    ordered: hours.reduce((sum, h) => sum + h.placed, 0),
    paid: hours.reduce((sum, h) => sum + h.paid, 0),
  };
}

/**
 * Visitors → added to bag → reached checkout → placed order → paid, for a span (decision 0025).
 * The first three come from the hourly roll-ups (sessions counted once per store day, cookieless
 * visits by their first page); orders placed and paid come from the orders table, test orders
 * left out unless asked for.
 */
export async function funnelFor(ctx: AppContext, query: FunnelQuery): Promise<Funnel> {
  const [events, hours] = await Promise.all([
    eventSteps(ctx, query.from, query.to),
    orderHours(ctx, query.from, query.to, query.includeTest === true),
  ]);
  return { ...events, ...orderSteps(hours) };
}

import { sql } from "kysely";
import type { Funnel } from "#server/contracts/reports";
import type { AppContext } from "#server/context";
import { ORDER_METRICS, ordersRolledBefore, TEST_ORDER_METRICS } from "./order-rollup";

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

/** Orders placed in [from, to) per UTC hour, read from the orders table (its report index covers every column read). */
async function liveOrderHours(ctx: AppContext, from: string, to: string, includeTest: boolean): Promise<OrderHour[]> {
  if (from >= to) return [];
  const { rows } = await sql<{ h: string; placed: number; paid: number; cents: number | null }>`
    SELECT substr(created_at, 1, 13) AS h, count(*) AS placed, count(paid_at) AS paid,
      sum(CASE WHEN paid_at IS NULL THEN 0 ELSE total_cents END) AS cents
    FROM orders WHERE created_at >= ${from} AND created_at < ${to} ${includeTest ? sql`` : sql`AND is_test = 0`}
    GROUP BY substr(created_at, 1, 13)`.execute(ctx.db);
  return rows.map((row) => ({
    hour: `${row.h}:00:00.000Z`,
    placed: Number(row.placed),
    paid: Number(row.paid),
    paidCents: Number(row.cents ?? 0),
  }));
}

/** The same from the hourly roll-ups (order-rollup.ts), for hours before the orders' roll-up instant. */
async function rolledOrderHours(ctx: AppContext, from: string, to: string, includeTest: boolean): Promise<OrderHour[]> {
  if (from >= to) return [];
  const metrics: string[] = [...ORDER_METRICS, ...(includeTest ? TEST_ORDER_METRICS : [])];
  const rows = await ctx.db
    .selectFrom("eventHours")
    .select(["hour", "metric", "count"])
    .where("hour", ">=", from)
    .where("hour", "<", to)
    .where("metric", "in", metrics)
    .execute();
  const byHour = new Map<string, OrderHour>();
  for (const row of rows) {
    let hour = byHour.get(row.hour);
    if (!hour) byHour.set(row.hour, (hour = { hour: row.hour, placed: 0, paid: 0, paidCents: 0 }));
    const n = Number(row.count);
    if (row.metric.endsWith(":placed")) hour.placed += n;
    else if (row.metric.endsWith(":paid")) hour.paid += n;
    else hour.paidCents += n;
  }
  return [...byHour.values()];
}

/**
 * Orders placed in [from, to) per UTC hour: how many, how many of them are paid and their totals.
 * Hours before the orders' roll-up come from the roll-ups, the rest (today and yesterday) from
 * the orders table; shared by the funnel and the summary's series.
 */
export async function orderHours(ctx: AppContext, from: Date | string, to: Date | string, includeTest = false): Promise<OrderHour[]> {
  const start = iso(from);
  const end = iso(to);
  const rolledBefore = (await ordersRolledBefore(ctx)) ?? start;
  const split = rolledBefore < start ? start : rolledBefore > end ? end : rolledBefore;
  const [rolled, live] = await Promise.all([
    rolledOrderHours(ctx, start, split, includeTest),
    liveOrderHours(ctx, split, end, includeTest),
  ]);
  return rolled.concat(live);
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

/** Events dropped (a process's ceiling, rows refused) in the hours starting in [from, to), as rolled up. */
export async function droppedEvents(ctx: AppContext, from: Date | string, to: Date | string): Promise<number> {
  const row = await ctx.db
    .selectFrom("eventHours")
    .select((eb) => eb.fn.sum<number>("count").as("n"))
    .where("hour", ">=", iso(from))
    .where("hour", "<", iso(to))
    .where("metric", "=", "events_dropped")
    .executeTakeFirst();
  return Number(row?.n ?? 0);
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

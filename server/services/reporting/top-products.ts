import { sql } from "kysely";
import { toDollars } from "#server/contracts/money";
import type { TopProduct } from "#server/contracts/reports";
import type { AppContext } from "#server/context";
import { ordersRolledBefore } from "./order-rollup";
import type { ReportRange } from "./report-range";

interface Sold {
  units: number;
  cents: number;
  name: string | null;
}

function add(sold: Map<number, Sold>, productId: number, units: number, cents: number, name: string | null) {
  const row = sold.get(productId) ?? { units: 0, cents: 0, name: null };
  row.units += units;
  row.cents += cents;
  row.name ??= name;
  sold.set(productId, row);
}

/** Units and money per product from the hourly roll-ups (order-rollup.ts), hours in [from, to). */
async function rolledSales(ctx: AppContext, sold: Map<number, Sold>, from: string, to: string, includeTest: boolean) {
  if (from >= to) return;
  // (metric, hour) order: each prefix is one run of the table.
  const prefixes = includeTest ? ["product:", "product-test:"] : ["product:"];
  for (const prefix of prefixes) {
    const rows = await ctx.db
      .selectFrom("eventHours")
      .select((eb) => ["metric", eb.fn.sum<number>("count").as("n")])
      .where("metric", ">=", prefix)
      .where("metric", "<", `${prefix.slice(0, -1)};`)
      .where("hour", ">=", from)
      .where("hour", "<", to)
      .groupBy("metric")
      .execute();
    for (const row of rows) {
      const [, id, what] = row.metric.split(":");
      const n = Number(row.n);
      add(sold, Number(id), what === "units" ? n : 0, what === "cents" ? n : 0, null);
    }
  }
}

/** The same read from the orders placed in [from, to), for the days not rolled up yet. */
async function liveSales(ctx: AppContext, sold: Map<number, Sold>, from: string, to: string, includeTest: boolean) {
  if (from >= to) return;
  const { rows } = await sql<{ productId: number; name: string; units: number; cents: number }>`
    SELECT order_items.product_id, max(order_items.product_name) AS name,
      sum(order_items.quantity) AS units, sum(order_items.total_cents) AS cents
    FROM order_items JOIN orders ON orders.id = order_items.order_id
    WHERE orders.created_at >= ${from} AND orders.created_at < ${to} AND orders.paid_at IS NOT NULL
      AND order_items.product_id IS NOT NULL ${includeTest ? sql`` : sql`AND orders.is_test = 0`}
    GROUP BY order_items.product_id`.execute(ctx.db);
  for (const row of rows) add(sold, Number(row.productId), Number(row.units), Number(row.cents), row.name);
}

/**
 * The best sellers of a range by units, in paid orders placed in it (test orders left out unless
 * asked for): rolled-up hours and the orders since, as the summary reads them. Lines of a deleted
 * product are left out (they no longer name one).
 */
export async function topProducts(ctx: AppContext, range: ReportRange, includeTest: boolean, limit = 5): Promise<TopProduct[]> {
  const start = range.start.toISOString();
  const end = range.end.toISOString();
  const rolledBefore = (await ordersRolledBefore(ctx)) ?? start;
  const split = rolledBefore < start ? start : rolledBefore > end ? end : rolledBefore;
  const sold = new Map<number, Sold>();
  await rolledSales(ctx, sold, start, split, includeTest);
  await liveSales(ctx, sold, split, end, includeTest);
  const top = [...sold]
    .filter(([, s]) => s.units > 0)
    .sort(([, a], [, b]) => b.units - a.units || b.cents - a.cents)
    .slice(0, limit);
  const ids = top.map(([id]) => id);
  const names = ids.length ? await ctx.db.selectFrom("products").select(["id", "name"]).where("id", "in", ids).execute() : [];
  return top.map(([productId, s]) => ({
    productId,
    name: names.find((p) => p.id === productId)?.name ?? s.name ?? `Product ${productId}`,
    units: s.units,
    revenue: toDollars(s.cents),
  }));
}

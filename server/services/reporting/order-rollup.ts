import { sql } from "kysely";
import type { AppContext } from "#server/context";
import { addStoreDays, storeDayOf, storeDayStart } from "#server/contracts/store-time";

/**
 * Orders per hour in the roll-ups (decision 0025), so a 30-day summary over 100,000 orders reads
 * 720 hours instead of every order. Only store days that ended before yesterday are rolled up
 * (`event_rollup` row 2 holds that instant: the order hours are counted before it); each run
 * recounts the last RECOUNT_DAYS before it as well, since an order can be paid a while after it
 * was placed (a payment confirmed by the sweeper). Anything newer is read from the orders table.
 *
 * Metrics per hour: "orders:placed", "orders:paid", "orders:cents" (totals of the paid ones), and
 * the same for test orders under "orders:test:…"; per product of the paid orders,
 * "product:<id>:units" and "product:<id>:cents" ("product-test:…" for test orders), for the top
 * products.
 */
export const ORDERS_ROW = 2;
const RECOUNT_DAYS = 3;

export const ORDER_METRICS = ["orders:placed", "orders:paid", "orders:cents"] as const;
export const TEST_ORDER_METRICS = ["orders:test:placed", "orders:test:paid", "orders:test:cents"] as const;

/** The instant before which order hours come from the roll-ups; null before the first roll-up. */
export async function ordersRolledBefore(ctx: AppContext): Promise<string | null> {
  const row = await ctx.db.selectFrom("eventRollup").select("rolledAt").where("id", "=", ORDERS_ROW).executeTakeFirst();
  return row?.rolledAt ?? null;
}

// When this process last recounted, per database: within the hour and the same day, nothing to do.
const lastRun = new WeakMap<object, number>();
const RERUN_MS = 60 * 60_000;

/** Run by the sweeper's leader: at most once an hour, unless a new day is to be rolled up. */
export async function rollUpOrders(ctx: AppContext): Promise<{ hours: number } | null> {
  const now = ctx.clock.now().getTime();
  const before = storeDayStart(addStoreDays(storeDayOf(ctx.clock.now()), -1)).toISOString();
  const previous = await ordersRolledBefore(ctx);
  const ran = lastRun.get(ctx.db);
  if (previous === before && ran !== undefined && now - ran >= 0 && now - ran < RERUN_MS) return null;
  lastRun.set(ctx.db, now);
  const from = previous ? storeDayStart(addStoreDays(storeDayOf(new Date(previous)), -RECOUNT_DAYS)).toISOString() : "";
  const { rows } = await sql<{ h: string; isTest: number; placed: number; paid: number; cents: number | null }>`
    SELECT substr(created_at, 1, 13) AS h, is_test, count(*) AS placed, count(paid_at) AS paid,
      sum(CASE WHEN paid_at IS NULL THEN 0 ELSE total_cents END) AS cents
    FROM orders WHERE created_at >= ${from} AND created_at < ${before}
    GROUP BY substr(created_at, 1, 13), is_test`.execute(ctx.db);
  const products = await sql<{ h: string; isTest: number; productId: number; units: number; cents: number | null }>`
    SELECT substr(orders.created_at, 1, 13) AS h, orders.is_test, order_items.product_id,
      sum(order_items.quantity) AS units, sum(order_items.total_cents) AS cents
    FROM order_items JOIN orders ON orders.id = order_items.order_id
    WHERE orders.created_at >= ${from} AND orders.created_at < ${before} AND orders.paid_at IS NOT NULL
      AND order_items.product_id IS NOT NULL
    GROUP BY substr(orders.created_at, 1, 13), orders.is_test, order_items.product_id`.execute(ctx.db);
  const productValues = products.rows.flatMap((row) => {
    const hour = `${row.h}:00:00.000Z`;
    const prefix = `${Number(row.isTest) === 1 ? "product-test" : "product"}:${row.productId}`;
    return [
      { hour, metric: `${prefix}:units`, count: Number(row.units) },
      { hour, metric: `${prefix}:cents`, count: Number(row.cents ?? 0) },
    ];
  });
  const values = rows.flatMap((row) => {
    const hour = `${row.h}:00:00.000Z`;
    const names = Number(row.isTest) === 1 ? TEST_ORDER_METRICS : ORDER_METRICS;
    return [
      { hour, metric: names[0], count: Number(row.placed) },
      { hour, metric: names[1], count: Number(row.paid) },
      { hour, metric: names[2], count: Number(row.cents ?? 0) },
    ];
  });
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("eventHours")
      .where("hour", ">=", from)
      .where("hour", "<", before)
      .where((eb) => eb.or([eb("metric", "like", "orders:%"), eb("metric", "like", "product:%"), eb("metric", "like", "product-test:%")]))
      .execute();
    const all: { hour: string; metric: string; count: number }[] = [...values, ...productValues];
    for (let i = 0; i < all.length; i += 200) {
      await trx
        .insertInto("eventHours")
        .values(all.slice(i, i + 200))
        .execute();
    }
    await trx
      .insertInto("eventRollup")
      .values({ id: ORDERS_ROW, rolledToId: 0, rolledAt: before })
      .onConflict((oc) => oc.column("id").doUpdateSet({ rolledAt: before }))
      .execute();
  });
  return { hours: values.length / 3 };
}

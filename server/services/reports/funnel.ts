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

/**
 * Visitors → added to bag → reached checkout → placed order → paid, for a span (decision 0025).
 * The first three come from the hourly roll-ups (sessions counted once per store day, cookieless
 * visits by their first page); orders placed and paid come from the orders table, test orders
 * left out unless asked for.
 */
export async function funnelFor(ctx: AppContext, query: FunnelQuery): Promise<Funnel> {
  const from = iso(query.from);
  const to = iso(query.to);
  const [metrics, orders] = await Promise.all([
    ctx.db
      .selectFrom("eventHours")
      .select((eb) => ["metric", eb.fn.sum<number>("count").as("n")])
      .where("hour", ">=", from)
      .where("hour", "<", to)
      .where("metric", "in", ["visitors", "bagged", "checkout_sessions"])
      .groupBy("metric")
      .execute(),
    ctx.db
      .selectFrom("orders")
      .select((eb) => [
        eb.fn.countAll<number>().as("ordered"),
        eb.fn.sum<number>(eb.case().when("paidAt", "is not", null).then(1).else(0).end()).as("paid"),
      ])
      .where("createdAt", ">=", from)
      .where("createdAt", "<", to)
      .$if(!query.includeTest, (qb) => qb.where("isTest", "=", 0))
      .executeTakeFirstOrThrow(),
  ]);
  const metric = (name: string) => Number(metrics.find((row) => row.metric === name)?.n ?? 0);
  return {
    visitors: metric("visitors"),
    bagged: metric("bagged"),
    checkout: metric("checkout_sessions"),
    ordered: Number(orders.ordered ?? 0),
    paid: Number(orders.paid ?? 0),
  };
}

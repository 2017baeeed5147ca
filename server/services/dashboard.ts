import type { AppContext } from "../context";
import { toDollars } from "./catalog";

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

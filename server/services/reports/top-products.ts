import type { TopProduct } from "../../contracts/reports";
import type { AppContext } from "../../context";
import type { ReportRange } from "../report-range";

/** The best sellers of a range by units, in paid orders placed in it (test orders left out unless asked). */
export async function topProducts(ctx: AppContext, range: ReportRange, includeTest: boolean, limit = 5): Promise<TopProduct[]> {
  const rows = await ctx.db
    .selectFrom("orderItems")
    .innerJoin("orders", "orders.id", "orderItems.orderId")
    .select((eb) => [
      "orderItems.productId",
      eb.fn.max("orderItems.productName").as("name"),
      eb.fn.sum<number>("orderItems.quantity").as("units"),
      eb.fn.sum<number>("orderItems.totalCents").as("cents"),
    ])
    .where("orders.createdAt", ">=", range.start.toISOString())
    .where("orders.createdAt", "<", range.end.toISOString())
    .where("orders.paidAt", "is not", null)
    .$if(!includeTest, (qb) => qb.where("orders.isTest", "=", 0))
    .groupBy("orderItems.productId")
    .orderBy("units", "desc")
    .orderBy("cents", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    productId: row.productId,
    name: String(row.name),
    units: Number(row.units),
    revenue: Math.round(Number(row.cents)) / 100,
  }));
}

import type { Db } from "#db/client";

/**
 * Where every unit of a product is: on the shelf (`left`), held by a pending checkout, or sold; and
 * the units paid orders bought (a paid order cancelled because its hold ran out sold nothing).
 * The books balance when sold + held + left is the stock and sold equals paidUnits.
 */
export async function unitsOf(db: Db, productId: number) {
  const holds = await db
    .selectFrom("inventoryHolds")
    .select(["status", (eb) => eb.fn.sum<number>("quantity").as("units")])
    .where("productId", "=", productId)
    .groupBy("status")
    .execute();
  const units = (status: string) => Number(holds.find((h) => h.status === status)?.units ?? 0);
  const { inventory } = await db.selectFrom("products").select("inventory").where("id", "=", productId).executeTakeFirstOrThrow();
  const paid = await db
    .selectFrom("orderItems")
    .innerJoin("orders", "orders.id", "orderItems.orderId")
    .select((eb) => eb.fn.sum<number>("orderItems.quantity").as("units"))
    .where("orderItems.productId", "=", productId)
    .where("orders.paidAt", "is not", null)
    .where("orders.status", "<>", "cancelled")
    .executeTakeFirstOrThrow();
  return { sold: units("sold"), held: units("held"), left: inventory, paidUnits: Number(paid.units ?? 0) };
}

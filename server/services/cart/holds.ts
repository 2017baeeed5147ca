import type { Transaction } from "kysely";
import type { DB } from "#db/schema";
import type { AppContext } from "#server/context";
import { paymentsFor } from "#server/integrations/payments";
import { logWarning } from "#server/observability/log";
import { lockProductRows, putBackUnits } from "#server/services/catalog/product-stock";

/**
 * Puts a held order's units back on the shelf. Idempotent: only 'held' rows move. The products'
 * rows are locked first, in id order, as Process Order locks them before it takes units: putting
 * a size back writes its row and then the product's sum, and an order taking that size holds the
 * product's row while it writes the size's, so without the lock each waited on the other.
 */
export async function releaseHolds(trx: Transaction<DB>, orderId: number): Promise<number> {
  const holds = await trx
    .selectFrom("inventoryHolds")
    .select(["id", "productId", "quantity", "size", "color"])
    .where("orderId", "=", orderId)
    .where("status", "=", "held")
    .execute();
  await lockProductRows(
    trx,
    holds.map((hold) => hold.productId),
  );
  for (const hold of holds) {
    const released = await trx
      .updateTable("inventoryHolds")
      .set({ status: "released" })
      .where("id", "=", hold.id)
      .where("status", "=", "held")
      .executeTakeFirst();
    // Back on the shelf it came from: its size's (or colour-and-size's), or the product's.
    if (Number(released.numUpdatedRows) === 1) await putBackUnits(trx, hold.productId, hold, hold.quantity);
  }
  return holds.length;
}

/**
 * Ends a pending order whose buyer did not pay in time (or gave up): its payment can no longer
 * be completed and its units are released. A payment that succeeds anyway is caught by the
 * confirmation, which re-takes the stock or refunds.
 */
export async function expireOrder(ctx: AppContext, orderId: number): Promise<void> {
  const order = await ctx.db
    .selectFrom("orders")
    .select(["id", "paymentIntentId", "checkoutSessionId"])
    .where("id", "=", orderId)
    .where("status", "=", "pending")
    .where("paidAt", "is", null)
    .executeTakeFirst();
  if (!order) return;
  const payments = paymentsFor(ctx);
  if (order.checkoutSessionId && payments.expireHostedCheckout) {
    // The buyer may be on Stripe's page: close it, unless they paid there already.
    const session = await payments.expireHostedCheckout(order.checkoutSessionId);
    if (session.paid) return;
  }
  if (order.paymentIntentId) {
    // Paid (or being paid) after all: the confirmation, not the expiry, decides this order.
    const intent = await payments.retrieveIntent(order.paymentIntentId).catch(() => null);
    if (intent && (intent.status === "succeeded" || intent.status === "processing")) return;
    await payments.cancelIntent(order.paymentIntentId);
  }
  await ctx.db.transaction().execute(async (trx) => {
    const cancelled = await trx
      .updateTable("orders")
      .set({ status: "cancelled", updatedAt: ctx.clock.now().toISOString() })
      .where("id", "=", orderId)
      .where("status", "=", "pending")
      .where("paidAt", "is", null)
      .executeTakeFirst();
    if (Number(cancelled.numUpdatedRows) === 1) await releaseHolds(trx, orderId);
  });
}

/** Releases every hold past its time. Run before each checkout and on a timer. */
export async function releaseExpiredHolds(ctx: AppContext): Promise<number> {
  const expired = await ctx.db
    .selectFrom("orders")
    .select("id")
    .where("status", "=", "pending")
    .where("paidAt", "is", null)
    .where("holdExpiresAt", "<=", ctx.clock.now().toISOString())
    .execute();
  for (const { id } of expired) {
    // One order that cannot be expired now (say, the processor is unreachable) must not block every checkout.
    await expireOrder(ctx, id).catch((error: unknown) => logWarning(`Order ${id}: expiring its hold failed, will retry`, error));
  }
  return expired.length;
}

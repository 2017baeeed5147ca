import { orderNumberOf } from "../contracts/checkout";
import type { AppContext } from "../context";
import { Conflict, NotFound } from "../errors";
import { paymentsFor } from "../integrations/payments";
import { assertWithinLimits } from "./customer-limits";
import { nudgeFulfilment } from "./fulfilment-job";
import { expireOrder } from "./holds";
import { recordEvent } from "./events";

export type ConfirmOutcome =
  /** `paymentIntentId`: the payment the order was paid with. */
  | { status: "paid"; orderId: number; orderNumber: string; paymentIntentId: string; firstTime: boolean }
  | { status: "pending"; orderId: number; orderNumber: string }
  | { status: "failed"; orderId: number; orderNumber: string; message: string }
  | { status: "cancelled"; orderId: number; orderNumber: string; message: string };

/**
 * The one way an order becomes paid, whoever asks (the buyer's confirm call, the Stripe webhook,
 * the success page), as often and in whatever order. The provider is asked whether the payment
 * succeeded; the order moves from pending exactly once. The e-mail and the label are the
 * fulfilment job's (fulfilment-job.ts, decision 0027): it finds the order paid and unfulfilled.
 */
export async function confirmPayment(ctx: AppContext, paymentIntentId: string): Promise<ConfirmOutcome> {
  const order = await ctx.db
    .selectFrom("orders")
    .select(["id", "paymentIntentId", "totalCents", "status", "paidAt", "refundStatus", "customerKey", "addressKey"])
    .where("paymentIntentId", "=", paymentIntentId)
    .executeTakeFirst();
  if (!order) throw new NotFound("Order not found.");
  const orderNumber = orderNumberOf(order);
  if (order.paidAt && order.status === "cancelled") {
    // Paid, then cancelled (a late payment refunded, or the admin's doing): asked again, say so
    // rather than "paid" to a buyer reloading the success page.
    const refunded = order.refundStatus === "completed";
    return { status: "cancelled", orderId: order.id, orderNumber, message: refunded ? CANCELLED_REFUNDED : CANCELLED };
  }
  if (order.paidAt) return { status: "paid", orderId: order.id, orderNumber, paymentIntentId, firstTime: false };

  const intent = await paymentsFor(ctx).retrieveIntent(paymentIntentId);
  if (intent.status === "canceled") {
    await expireOrder(ctx, order.id);
    return { status: "cancelled", orderId: order.id, orderNumber, message: "This payment was canceled." };
  }
  if (intent.status !== "succeeded") {
    if (intent.lastError) return { status: "failed", orderId: order.id, orderNumber, message: intent.lastError };
    return { status: "pending", orderId: order.id, orderNumber };
  }
  if (intent.amountCents !== order.totalCents) {
    // Never fulfil an order for an amount other than its total; an admin must look at it.
    console.error(`Payment ${paymentIntentId} is for ${intent.amountCents} cents but order ${order.id} totals ${order.totalCents}.`);
    return {
      status: "failed",
      orderId: order.id,
      orderNumber,
      message: "The payment amount does not match the order. Please contact support.",
    };
  }

  const now = ctx.clock.now().toISOString();
  const outcome = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const moved = await trx
        .updateTable("orders")
        .set({ status: "processing", paidAt: now, updatedAt: now })
        .where("id", "=", order.id)
        .where("paidAt", "is", null)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return "already" as const;
      const holds = await trx
        .selectFrom("inventoryHolds")
        .select(["id", "productId", "quantity", "status"])
        .where("orderId", "=", order.id)
        .execute();
      let late = false;
      for (const hold of holds) {
        if (hold.status === "released") {
          late = true;
          // The hold ran out before the money arrived: take the units again if they are still there.
          const retaken = await trx
            .updateTable("products")
            .set((eb) => ({ inventory: eb("inventory", "-", hold.quantity) }))
            .where("id", "=", hold.productId)
            .where("inventory", ">=", hold.quantity)
            .executeTakeFirst();
          if (Number(retaken.numUpdatedRows) !== 1) throw new SoldOutAfterExpiry();
        }
        await trx.updateTable("inventoryHolds").set({ status: "sold" }).where("id", "=", hold.id).execute();
      }
      // While the hold had run out the customer could order the same product again (an expired hold
      // does not count towards the limit), so the limit is judged again before this order counts.
      if (late && order.customerKey !== null && order.addressKey !== null) {
        const productIds = [...new Set(holds.map((hold) => hold.productId))];
        await assertWithinLimits(trx, { customerKey: order.customerKey, addressKey: order.addressKey, productIds, now }).catch(
          (error: unknown) => {
            throw error instanceof Conflict ? new OverLimitAfterExpiry(error.message) : error;
          },
        );
      }
      const sessionId = (await trx.selectFrom("orders").select("sessionId").where("id", "=", order.id).executeTakeFirstOrThrow()).sessionId;
      if (sessionId) await trx.deleteFrom("cartItems").where("sessionId", "=", sessionId).execute();
      return "moved" as const;
    })
    .catch(async (error: unknown) => {
      if (error instanceof SoldOutAfterExpiry) {
        await refundLatePayment(ctx, order.id, paymentIntentId, intent.amountCents, "Sold out after the reservation expired");
        return { refunded: "Your reservation ran out and the items sold out meanwhile. Your payment has been refunded in full." };
      }
      if (error instanceof OverLimitAfterExpiry) {
        await refundLatePayment(
          ctx,
          order.id,
          paymentIntentId,
          intent.amountCents,
          "Over the limit per customer after the reservation expired",
        );
        return {
          refunded: `Your reservation ran out and you have ordered this item again since. ${error.message} Your payment has been refunded in full.`,
        };
      }
      throw error;
    });

  if (typeof outcome === "object") return { status: "cancelled", orderId: order.id, orderNumber, message: outcome.refunded };
  if (outcome === "already") return { status: "paid", orderId: order.id, orderNumber, paymentIntentId, firstTime: false };
  recordEvent(ctx, { kind: "payment", orderId: order.id });
  // Not inline: the answer does not wait for the label (a PDF or a Shippo call) and the e-mail. The
  // job finds the order by its paid_at in any case; the nudge only spares it its next poll when it
  // runs in this process.
  nudgeFulfilment();
  return { status: "paid", orderId: order.id, orderNumber, paymentIntentId, firstTime: true };
}

const CANCELLED_REFUNDED = "This order was cancelled and your payment has been refunded in full.";
const CANCELLED = "This order was cancelled.";

class SoldOutAfterExpiry extends Error {}
class OverLimitAfterExpiry extends Error {}

async function refundLatePayment(ctx: AppContext, orderId: number, paymentIntentId: string, amountCents: number, reason: string) {
  const refund = await paymentsFor(ctx).refund({ paymentIntentId, amountCents, idempotencyKey: `late-refund-${orderId}` });
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("orders")
      .set({
        status: "cancelled",
        paidAt: now,
        fulfilledAt: now,
        refundStatus: "completed",
        refundAmountCents: amountCents,
        refundedAt: now,
        updatedAt: now,
      })
      .where("id", "=", orderId)
      .execute();
    await trx
      .insertInto("refunds")
      .values({
        orderId,
        refundId: refund.id,
        amountCents,
        reason,
        status: refund.status,
        processedAt: now,
      })
      .execute();
  });
}

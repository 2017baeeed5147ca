import { orderNumberOf } from "../contracts/checkout";
import type { AppContext } from "../context";
import { NotFound } from "../errors";
import { paymentsFor } from "../integrations/payments";
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
    .select(["id", "paymentIntentId", "totalCents", "status", "paidAt"])
    .where("paymentIntentId", "=", paymentIntentId)
    .executeTakeFirst();
  if (!order) throw new NotFound("Order not found.");
  const orderNumber = orderNumberOf(order);
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
      for (const hold of holds) {
        if (hold.status === "released") {
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
      const sessionId = (await trx.selectFrom("orders").select("sessionId").where("id", "=", order.id).executeTakeFirstOrThrow()).sessionId;
      if (sessionId) await trx.deleteFrom("cartItems").where("sessionId", "=", sessionId).execute();
      return "moved" as const;
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof SoldOutAfterExpiry)) throw error;
      await refundLatePayment(ctx, order.id, paymentIntentId, intent.amountCents);
      return "refunded" as const;
    });

  if (outcome === "refunded") {
    return {
      status: "cancelled",
      orderId: order.id,
      orderNumber,
      message: "Your reservation ran out and the items sold out meanwhile. Your payment has been refunded in full.",
    };
  }
  if (outcome === "already") return { status: "paid", orderId: order.id, orderNumber, paymentIntentId, firstTime: false };
  recordEvent(ctx, { kind: "payment", orderId: order.id });
  // Not inline: the answer does not wait for the label (a PDF or a Shippo call) and the e-mail. The
  // job finds the order by its paid_at in any case; the nudge only spares it its next poll when it
  // runs in this process.
  nudgeFulfilment();
  return { status: "paid", orderId: order.id, orderNumber, paymentIntentId, firstTime: true };
}

class SoldOutAfterExpiry extends Error {}

async function refundLatePayment(ctx: AppContext, orderId: number, paymentIntentId: string, amountCents: number) {
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
        reason: "Sold out after the reservation expired",
        status: refund.status,
        processedAt: now,
      })
      .execute();
  });
}

import { orderNumberOf } from "#server/contracts/checkout";
import type { Transaction } from "kysely";
import type { DB } from "#db/schema";
import type { AppContext } from "#server/context";
import { Conflict, NotFound } from "#server/errors";
import { paymentsFor } from "#server/integrations/payments";
import { assertWithinLimits } from "#server/services/drop/customer-limits";
import { nudgeFulfilment } from "#server/services/fulfilment/fulfilment-nudge";
import { expireOrder, releaseHolds } from "#server/services/cart/holds";
import { recordEvent } from "#server/services/reporting/events";
import { meter } from "#server/observability/meter";
import { log, logWarning } from "#server/observability/log";
import { lockProductRows, takeUnits } from "#server/services/catalog/product-stock";
import { compiledOnce } from "#db/compiled-query";

// The statements every paid order runs once, and every confirmation asked again reads: kept compiled.
const orderToConfirm = compiledOnce((db, $: { paymentIntentId: string }) =>
  db
    .selectFrom("orders")
    .select(["id", "paymentIntentId", "totalCents", "status", "paidAt", "refundStatus", "customerKey", "addressKey", "holdExpiresAt"])
    .where("paymentIntentId", "=", $.paymentIntentId),
);
const markPaid = compiledOnce((db, $: { id: number; now: string }) =>
  db
    .updateTable("orders")
    .set({ status: "processing", paidAt: $.now, updatedAt: $.now })
    .where("id", "=", $.id)
    .where("paidAt", "is", null)
    .where("refundStatus", "=", "none"),
);
const holdsOf = compiledOnce((db, $: { orderId: number }) =>
  db.selectFrom("inventoryHolds").select(["id", "productId", "quantity", "status", "size", "color"]).where("orderId", "=", $.orderId),
);
const markHoldSold = compiledOnce((db, $: { id: number }) =>
  db.updateTable("inventoryHolds").set({ status: "sold" }).where("id", "=", $.id),
);
const sessionOfOrder = compiledOnce((db, $: { id: number }) => db.selectFrom("orders").select("sessionId").where("id", "=", $.id));
const itemsBought = compiledOnce((db, $: { orderId: number }) =>
  db.selectFrom("orderItems").select(["productId", "quantity"]).where("orderId", "=", $.orderId),
);
const dropBoughtLine = compiledOnce((db, $: { sessionId: string; productId: number; quantity: number }) =>
  db.deleteFrom("cartItems").where("sessionId", "=", $.sessionId).where("productId", "=", $.productId).where("quantity", "<=", $.quantity),
);
const lowerBoughtLine = compiledOnce((db, $: { sessionId: string; productId: number; quantity: number; now: string }) =>
  db
    .updateTable("cartItems")
    .set((eb) => ({ quantity: eb("quantity", "-", $.quantity), updatedAt: $.now }))
    .where("sessionId", "=", $.sessionId)
    .where("productId", "=", $.productId),
);

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
export async function confirmPayment(ctx: AppContext, paymentIntentId: string, reread = false): Promise<ConfirmOutcome> {
  const order = await orderToConfirm.first(ctx.db, { paymentIntentId });
  if (!order) throw new NotFound("Order not found.");
  const orderNumber = orderNumberOf(order);
  if (order.paidAt && order.status === "cancelled") {
    // Paid, then cancelled (a late payment refunded, or the admin's doing): asked again, say so
    // rather than "paid" to a buyer reloading the success page.
    const refunded = order.refundStatus === "completed";
    return { status: "cancelled", orderId: order.id, orderNumber, message: refunded ? CANCELLED_REFUNDED : CANCELLED };
  }
  if (order.paidAt) return { status: "paid", orderId: order.id, orderNumber, paymentIntentId, firstTime: false };
  const cancelledRefunded = { status: "cancelled" as const, orderId: order.id, orderNumber, message: CANCELLED_REFUNDED };
  // A late payment's refund was started and not recorded as done (a crash, or another caller at
  // work): finish it. Such an order never becomes paid.
  if (order.refundStatus === "pending") {
    await finishLateRefund(ctx, order.id, paymentIntentId);
    return cancelledRefunded;
  }

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
    log.error(`Payment ${paymentIntentId} is for ${intent.amountCents} cents but order ${order.id} totals ${order.totalCents}.`);
    return {
      status: "failed",
      orderId: order.id,
      orderNumber,
      message: "The payment amount does not match the order. Please contact support.",
    };
  }
  if (intent.refundedCents > 0) {
    // Refunded at the provider before the order was paid here (the dashboard, or a refund whose
    // record this store lost): it ships nothing, and whatever is left of the payment goes back too.
    logWarning(`Payment ${paymentIntentId} was refunded at the provider before order ${order.id} was paid: cancelling it.`);
    await refundLatePayment(ctx, order, paymentIntentId, intent.amountCents - intent.refundedCents, "Refunded at the payment provider");
    return confirmPayment(ctx, paymentIntentId, true);
  }

  const now = ctx.clock.now().toISOString();
  const outcome = await ctx.db
    .transaction()
    .execute(async (trx) => {
      // Not while a refund of this payment is under way (refund_status): that order is the refund's.
      const moved = await markPaid.run(trx, { id: order.id, now });
      if (Number(moved.numAffectedRows) !== 1) return "already" as const;
      const holds = await holdsOf.all(trx, { orderId: order.id });
      // Late: the hold ran out before the money arrived, released by now or not yet.
      let late = order.holdExpiresAt !== null && order.holdExpiresAt <= now;
      // Units to take again: the products' rows first, in id order, as Process Order takes them.
      const retaken = holds.filter((hold) => hold.status === "released").map((hold) => hold.productId);
      await lockProductRows(trx, retaken);
      for (const hold of holds) {
        if (hold.status === "released") {
          late = true;
          // The hold ran out before the money arrived: take the units again if they are still there.
          if (!(await takeUnits(trx, hold.productId, hold, hold.quantity))) throw new SoldOutAfterExpiry();
        }
        await markHoldSold.run(trx, { id: hold.id });
      }
      // While the hold had run out the customer could order the same product again (an expired hold
      // does not count towards the limit, released or not), so the limit is judged again before
      // this order counts.
      if (late && order.customerKey !== null && order.addressKey !== null) {
        const productIds = [...new Set(holds.map((hold) => hold.productId))];
        await assertWithinLimits(trx, { customerKey: order.customerKey, addressKey: order.addressKey, productIds, now }).catch(
          (error: unknown) => {
            throw error instanceof Conflict ? new OverLimitAfterExpiry(error.message) : error;
          },
        );
      }
      const sessionId = (await sessionOfOrder.first(trx, { id: order.id }))?.sessionId;
      if (sessionId) await takeBoughtFromBag(trx, order.id, sessionId, now);
      return "moved" as const;
    })
    .catch(async (error: unknown) => {
      if (error instanceof SoldOutAfterExpiry) {
        const started = await refundLatePayment(ctx, order, paymentIntentId, intent.amountCents, "Sold out after the reservation expired");
        return started
          ? { refunded: "Your reservation ran out and the items sold out meanwhile. Your payment has been refunded in full." }
          : ("already" as const);
      }
      if (error instanceof OverLimitAfterExpiry) {
        const started = await refundLatePayment(
          ctx,
          order,
          paymentIntentId,
          intent.amountCents,
          "Over the limit per customer after the reservation expired",
        );
        return started
          ? {
              refunded: `Your reservation ran out and you have ordered this item again since. ${error.message} Your payment has been refunded in full.`,
            }
          : ("already" as const);
      }
      throw error;
    });

  if (typeof outcome === "object") return { status: "cancelled", orderId: order.id, orderNumber, message: outcome.refunded };
  // Someone else moved the order first (paid, or refunding): answer what it became.
  if (outcome === "already") {
    return reread ? { status: "pending", orderId: order.id, orderNumber } : confirmPayment(ctx, paymentIntentId, true);
  }
  recordEvent(ctx, { kind: "payment", orderId: order.id });
  meter().paymentConfirmed();
  // Not inline: the answer does not wait for the label (a PDF or a Shippo call) and the e-mail. The
  // job finds the order by its paid_at in any case; the nudge only spares it its next poll when it
  // runs in this process.
  nudgeFulfilment();
  return { status: "paid", orderId: order.id, orderNumber, paymentIntentId, firstTime: true };
}

/**
 * What the payment bought leaves the bag; anything else stays (issue 25): a line added in another
 * tab while this order waited for its payment, or units beyond what the order holds.
 */
async function takeBoughtFromBag(trx: Transaction<DB>, orderId: number, sessionId: string, now: string): Promise<void> {
  const bought = await itemsBought.all(trx, { orderId });
  for (const { productId, quantity } of bought) {
    if (productId === null) continue;
    await dropBoughtLine.run(trx, { sessionId, productId, quantity });
    await lowerBoughtLine.run(trx, { sessionId, productId, quantity, now });
  }
}

const CANCELLED_REFUNDED = "This order was cancelled and your payment has been refunded in full.";
const CANCELLED = "This order was cancelled.";

class SoldOutAfterExpiry extends Error {}
class OverLimitAfterExpiry extends Error {}

/** One refund per payment, whoever starts or finishes it: the provider sees this key. */
const lateRefundKey = (paymentIntentId: string) => `late-refund-${paymentIntentId}`;

/**
 * A payment that cannot become an order goes back in full. Crash-safe (decision 0038): the refund
 * is recorded (`refunds.status` refunding, the order's refund_status pending) before the provider
 * is called, and finished by `finishLateRefund`, which the next confirmation (the sweeper's, after
 * a crash) runs again: it finds the refund at the provider by its key rather than making a second.
 * False when another caller moved the order first (paid it, or started its refund).
 */
async function refundLatePayment(
  ctx: AppContext,
  order: { id: number; totalCents: number },
  paymentIntentId: string,
  amountCents: number,
  reason: string,
): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  const started = await ctx.db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("orders")
      .set({ refundStatus: "pending", refundClaimedAt: now, updatedAt: now })
      .where("id", "=", order.id)
      .where("paidAt", "is", null)
      .where("refundStatus", "=", "none")
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    // Nothing left to give back (refunded in full at the provider already): only the order closes.
    if (amountCents <= 0) return true;
    await trx
      .insertInto("refunds")
      .values({
        orderId: order.id,
        // Known once the provider answers; until then the key finds the refund there.
        refundId: "",
        amountCents,
        reason,
        status: "refunding",
        idempotencyKey: lateRefundKey(paymentIntentId),
        createdAt: now,
      })
      .execute();
    return true;
  });
  if (started) await finishLateRefund(ctx, order.id, paymentIntentId);
  return started;
}

/**
 * Finishes a late payment's refund that was recorded as under way: the provider's refund with
 * the recorded key (found again, or made now: the same key answers the same refund), then the
 * order cancelled and fully refunded, with any units it still held back on the shelf. Only the
 * caller whose update moves the refund row writes the order.
 */
async function finishLateRefund(ctx: AppContext, orderId: number, paymentIntentId: string): Promise<void> {
  const row = await ctx.db
    .selectFrom("refunds")
    .select(["id", "amountCents", "idempotencyKey"])
    .where("orderId", "=", orderId)
    .where("status", "=", "refunding")
    .executeTakeFirst();
  const payments = paymentsFor(ctx);
  let refund: { id: string; status: string } | null = null;
  if (row) {
    const key = row.idempotencyKey ?? lateRefundKey(paymentIntentId);
    const found = () => payments.findRefund({ paymentIntentId, idempotencyKey: key });
    // Two confirmations at once both find no refund and both ask for it with the same key; the one
    // refused (Stripe answers a concurrent use of a key with an error) finds the other's refund.
    refund =
      (await found()) ??
      (await payments
        .refund({ paymentIntentId, amountCents: row.amountCents, idempotencyKey: key })
        .catch(async (error: unknown) => (await found()) ?? Promise.reject(error)));
  }
  const now = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    if (row) {
      const done = await trx
        .updateTable("refunds")
        .set({ refundId: refund?.id ?? "", status: refund?.status ?? "succeeded", processedAt: now })
        .where("id", "=", row.id)
        .where("status", "=", "refunding")
        .executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) return;
    }
    const closed = await trx
      .updateTable("orders")
      .set((eb) => ({
        status: "cancelled",
        cancelledAt: now,
        paidAt: now,
        fulfilledAt: now,
        refundStatus: "completed",
        refundAmountCents: eb.ref("totalCents"),
        refundedAt: now,
        updatedAt: now,
      }))
      .where("id", "=", orderId)
      .where("paidAt", "is", null)
      .executeTakeFirst();
    if (Number(closed.numUpdatedRows) === 1) await releaseHolds(trx, orderId);
  });
}

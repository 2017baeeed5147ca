import { REFUND_MESSAGES, type RefundInput } from "#server/contracts/admin-orders";
import { toDollars } from "#server/contracts/money";
import type { AppContext } from "#server/context";
import { Conflict, NotFound } from "#server/errors";
import { paymentsFor } from "#server/integrations/payments";
import { sendOrderMail } from "./order-status-mail";
import { logError } from "#server/observability/log";

async function orderFor(ctx: AppContext, orderId: number) {
  const order = await ctx.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
  if (!order) throw new NotFound("Order not found.");
  return order;
}

function ineligibility(order: {
  paidAt: string | null;
  paymentIntentId: string | null;
  refundStatus: string;
  status: string;
}): string | null {
  if (order.refundStatus === "completed") return REFUND_MESSAGES.alreadyRefunded;
  if (order.refundStatus === "pending") return REFUND_MESSAGES.inProgress;
  if (!order.paidAt || !order.paymentIntentId) return REFUND_MESSAGES.notPaid;
  return null;
}

type Refundable = { totalCents: number; shippingCents: number; refundAmountCents: number };

/** docs/spec.md §9: the order total, less shipping unless it is included, less anything refunded already. */
function refundableCents(order: Refundable, includeShipping: boolean): number {
  return Math.max(0, order.totalCents - (includeShipping ? 0 : order.shippingCents) - order.refundAmountCents);
}

/**
 * docs/spec.md §3 "Refund eligibility response", and `refundable`: what a refund would pay back with and
 * without shipping, so the dialog shows the server's figure rather than working it out itself.
 */
export async function refundEligibility(ctx: AppContext, orderId: number) {
  const order = await orderFor(ctx, orderId);
  const refunds = await ctx.db.selectFrom("refunds").selectAll().where("orderId", "=", orderId).orderBy("createdAt", "desc").execute();
  const reason = ineligibility(order);
  return {
    eligible: reason === null,
    eligibilityInfo: { message: reason ?? REFUND_MESSAGES.eligible },
    order: {
      total: toDollars(order.totalCents),
      shipping: toDollars(order.shippingCents),
      customerName: order.customerName,
      createdAt: order.createdAt,
      refundStatus: order.refundStatus,
      refundAmount: toDollars(order.refundAmountCents),
    },
    refundable: { withShipping: toDollars(refundableCents(order, true)), withoutShipping: toDollars(refundableCents(order, false)) },
    existingRefunds: refunds.map((r) => ({
      id: r.id,
      refundId: r.refundId,
      amount: toDollars(r.amountCents),
      reason: r.reason,
      status: r.status,
      shippingRefunded: r.shippingRefunded === 1,
      createdAt: r.createdAt,
      processedAt: r.processedAt,
    })),
  };
}

/**
 * Refunds an order once: the order total, less shipping unless it is included (docs/spec.md §9). The
 * order is claimed with a conditional update first, so a double click or a retried request
 * cannot refund twice, and the provider call carries an idempotency key for the same reason.
 */
export async function processRefund(ctx: AppContext, orderId: number, input: RefundInput, adminUserId: number) {
  const order = await orderFor(ctx, orderId);
  const reason = ineligibility(order);
  if (reason) throw new Conflict(reason);
  const amountCents = refundableCents(order, input.refundShipping);
  if (amountCents === 0) throw new Conflict("There is nothing left to refund on this order.");

  const claimed = await ctx.db
    .updateTable("orders")
    .set({ refundStatus: "pending", updatedAt: ctx.clock.now().toISOString() })
    .where("id", "=", orderId)
    .where("refundStatus", "=", "none")
    .where("paidAt", "is not", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new Conflict(REFUND_MESSAGES.inProgress);

  let refund: { id: string; status: string };
  try {
    refund = await paymentsFor(ctx).refund({
      paymentIntentId: order.paymentIntentId!,
      amountCents,
      idempotencyKey: `refund-order-${orderId}`,
    });
  } catch (error) {
    await ctx.db
      .updateTable("orders")
      .set({ refundStatus: "none" })
      .where("id", "=", orderId)
      .where("refundStatus", "=", "pending")
      .execute();
    const message = error instanceof Error ? error.message : REFUND_MESSAGES.failed;
    throw new Conflict(`${REFUND_MESSAGES.failed}: ${message}`);
  }

  const now = ctx.clock.now().toISOString();
  const answer = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto("refunds")
      .values({
        orderId,
        refundId: refund.id,
        amountCents,
        reason: input.reason,
        status: refund.status,
        shippingRefunded: input.refundShipping ? 1 : 0,
        adminUserId,
        createdAt: now,
        processedAt: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable("orders")
      .set((eb) => ({
        refundStatus: "completed",
        refundAmountCents: eb("refundAmountCents", "+", amountCents),
        refundedAt: now,
        updatedAt: now,
      }))
      .where("id", "=", orderId)
      .execute();
    return { refund: { id: row.id, refundId: row.refundId, amount: toDollars(row.amountCents), status: row.status, reason: row.reason } };
  });
  // The buyer hears of it, with the order page's link (issue 25); the refund stands either way.
  await sendOrderMail(ctx, orderId, "refunded").catch((error: unknown) => logError(`Order ${orderId}: the refund e-mail failed`, error));
  return answer;
}

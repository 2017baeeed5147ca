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

/**
 * How long a refund's claim (refund_status pending) may stand before a later `processRefund` takes
 * it over. A claim is made just before the provider call and released when it answers, so one this
 * old was left by a process that died meanwhile (a crash, a SIGKILL, a deploy). It must outlast the
 * slowest live call: Stripe's SDK waits up to 80 s for an answer (stripe-node's default timeout) and
 * tries a request three times (`maxNetworkRetries: 2` in integrations/payments/stripe.ts, at most 5 s
 * apart), about 4 minutes 10 at worst; a takeover makes two such calls (find, then refund). The
 * local processor answers from the database at once. Ten minutes is beyond all of them, and an
 * admin whose refund was cut off waits no longer than that to finish it.
 */
export const STALE_REFUND_CLAIM_MS = 10 * 60_000;

type RefundClaim = { refundStatus: string; refundClaimedAt: string | null; updatedAt: string };

/**
 * When the claim was made. A status change moves `updatedAt` but not this; a claim made before
 * migration 0030 has none, and its `updatedAt` stands for it.
 */
const claimedAtOf = (order: RefundClaim) => order.refundClaimedAt ?? order.updatedAt;

/** A pending claim old enough to be left by a process that died (STALE_REFUND_CLAIM_MS). */
function isStaleClaim(order: RefundClaim, now: Date): boolean {
  return order.refundStatus === "pending" && Date.parse(claimedAtOf(order)) <= now.getTime() - STALE_REFUND_CLAIM_MS;
}

function ineligibility(
  order: RefundClaim & { paidAt: string | null; paymentIntentId: string | null; status: string },
  now: Date,
): string | null {
  if (order.refundStatus === "completed") return REFUND_MESSAGES.alreadyRefunded;
  if (order.refundStatus === "pending" && !isStaleClaim(order, now)) return REFUND_MESSAGES.inProgress;
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
  const now = ctx.clock.now();
  const reason = ineligibility(order, now);
  return {
    eligible: reason === null,
    eligibilityInfo: { message: reason ?? (isStaleClaim(order, now) ? REFUND_MESSAGES.stalled : REFUND_MESSAGES.eligible) },
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
 * Which of the two figures a refund of `amountCents` is: the provider's refund decides, since a
 * taken-over claim's first try may have been asked with shipping or without it.
 */
function includesShipping(order: Refundable, amountCents: number, asked: boolean): boolean {
  const withShipping = refundableCents(order, true);
  return withShipping === refundableCents(order, false) ? asked : amountCents === withShipping;
}

/**
 * Refunds an order once: the order total, less shipping unless it is included (docs/spec.md §9). The
 * order is claimed with a conditional update first, so a double click or a retried request
 * cannot refund twice, and the provider call carries an idempotency key for the same reason.
 *
 * A claim left pending by a process that died before recording its refund (STALE_REFUND_CLAIM_MS)
 * is taken over: claimed again on its old claim time, so of two admins at once one proceeds. Every
 * try first asks the provider for a refund an earlier try made (by its key: Stripe keeps an
 * idempotency key only 24 hours), and otherwise asks with the same key, so the customer is
 * refunded once and that refund is recorded.
 */
export async function processRefund(ctx: AppContext, orderId: number, input: RefundInput, adminUserId: number) {
  const order = await orderFor(ctx, orderId);
  const reason = ineligibility(order, ctx.clock.now());
  if (reason) throw new Conflict(reason);
  // The claim is pending and stale, or ineligibility would have refused it.
  const takeover = order.refundStatus === "pending";
  let amountCents = refundableCents(order, input.refundShipping);
  if (amountCents === 0) throw new Conflict("There is nothing left to refund on this order.");

  const claimedAt = ctx.clock.now().toISOString();
  const claimed = await ctx.db
    .updateTable("orders")
    .set({ refundStatus: "pending", refundClaimedAt: claimedAt, updatedAt: claimedAt })
    .where("id", "=", orderId)
    .where("paidAt", "is not", null)
    // What the amount was worked out from is still so.
    .where("refundAmountCents", "=", order.refundAmountCents)
    .where((eb) =>
      takeover
        ? eb.and([
            eb("refundStatus", "=", "pending"),
            order.refundClaimedAt === null
              ? eb.and([eb("refundClaimedAt", "is", null), eb("updatedAt", "=", order.updatedAt)])
              : eb("refundClaimedAt", "=", order.refundClaimedAt),
          ])
        : eb("refundStatus", "=", "none"),
    )
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) throw new Conflict(REFUND_MESSAGES.inProgress);

  const payments = paymentsFor(ctx);
  const key = { paymentIntentId: order.paymentIntentId!, idempotencyKey: `refund-order-${orderId}` };
  let refund: { id: string; status: string };
  try {
    // Asked first on every try, not only a takeover: a try whose answer was lost gave its claim
    // back, and Stripe forgets an idempotency key after 24 hours, so only this lookup stops a later
    // try from refunding a second time. One more provider call per refund, which is an admin's act.
    const made = await payments.findRefund(key);
    if (made) amountCents = made.amountCents;
    refund = made ?? (await payments.refund({ ...key, amountCents }));
  } catch (error) {
    // Only this claim is given back: not one a takeover made meanwhile.
    await ctx.db
      .updateTable("orders")
      .set({ refundStatus: "none", refundClaimedAt: null })
      .where("id", "=", orderId)
      .where("refundStatus", "=", "pending")
      .where("refundClaimedAt", "=", claimedAt)
      .execute();
    const message = error instanceof Error ? error.message : REFUND_MESSAGES.failed;
    throw new Conflict(`${REFUND_MESSAGES.failed}: ${message}`);
  }

  const now = ctx.clock.now().toISOString();
  const answer = await ctx.db.transaction().execute(async (trx) => {
    // Recorded once. Every try carries the order's one key, so all hold the same refund: should this
    // claim have been taken over after all (or given back by a takeover that failed), the first to
    // record that refund moves the order, and the unique key keeps a second row out.
    const recorded = await trx
      .updateTable("orders")
      .set((eb) => ({
        refundStatus: "completed",
        refundAmountCents: eb("refundAmountCents", "+", amountCents),
        refundedAt: now,
        updatedAt: now,
      }))
      .where("id", "=", orderId)
      .where("refundStatus", "!=", "completed")
      .executeTakeFirst();
    if (Number(recorded.numUpdatedRows) !== 1) return null;
    const row = await trx
      .insertInto("refunds")
      .values({
        orderId,
        refundId: refund.id,
        amountCents,
        reason: input.reason,
        status: refund.status,
        shippingRefunded: includesShipping(order, amountCents, input.refundShipping) ? 1 : 0,
        adminUserId,
        idempotencyKey: key.idempotencyKey,
        createdAt: now,
        processedAt: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { refund: { id: row.id, refundId: row.refundId, amount: toDollars(row.amountCents), status: row.status, reason: row.reason } };
  });
  if (!answer) throw new Conflict(REFUND_MESSAGES.alreadyRefunded);
  // The buyer hears of it, with the order page's link (issue 25); the refund stands either way.
  await sendOrderMail(ctx, orderId, "refunded").catch((error: unknown) => logError(`Order ${orderId}: the refund e-mail failed`, error));
  return answer;
}

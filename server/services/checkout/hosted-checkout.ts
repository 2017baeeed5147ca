import { orderNumberOf } from "#server/contracts/checkout";
import { CHECKOUT_UI } from "#server/contracts/checkout-ui";
import type { AppContext } from "#server/context";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { paymentsFor } from "#server/integrations/payments";
import { confirmPayment, type ConfirmOutcome } from "./order-confirmation";
import { logWarning } from "#server/observability/log";

/**
 * Stripe refuses a Checkout Session that expires sooner than 30 minutes after it is created; a
 * session is only created while the hold lasts, so hold end + 31 minutes always satisfies it.
 */
const SESSION_MINUTES = 31;

export const HOSTED_MESSAGES = {
  unavailable: "Paying on Stripe's page needs Stripe to be configured.",
  paid: "This order is already paid.",
  expired: CHECKOUT_UI.holdExpired,
} as const;

function hostedProvider(ctx: AppContext) {
  const provider = paymentsFor(ctx);
  if (provider.mode !== "stripe" || !provider.createHostedCheckout || !provider.retrieveHostedCheckout)
    throw new Invalid(HOSTED_MESSAGES.unavailable);
  return {
    create: provider.createHostedCheckout.bind(provider),
    retrieve: provider.retrieveHostedCheckout.bind(provider),
    cancel: provider.cancelIntent.bind(provider),
    refund: provider.refund.bind(provider),
  };
}

/**
 * A buyer without JavaScript cannot use the Payment Element: they pay the same order, for the
 * same total, on Stripe's hosted Checkout page. Returns the page's address. Asking twice for one
 * order and payment gives the same session (the idempotency key), so a double click is harmless.
 */
export async function startHostedCheckout(ctx: AppContext, paymentIntentId: string, origin: string): Promise<string> {
  const stripe = hostedProvider(ctx);
  const order = await ctx.db
    .selectFrom("orders")
    .select(["id", "paymentIntentId", "status", "paidAt", "holdExpiresAt", "totalCents", "customerEmail"])
    .where("paymentIntentId", "=", paymentIntentId)
    .executeTakeFirst();
  if (!order) throw new NotFound("Payment not found.");
  if (order.paidAt) throw new Conflict(HOSTED_MESSAGES.paid);
  const now = ctx.clock.now();
  if (order.status !== "pending" || !order.holdExpiresAt || Date.parse(order.holdExpiresAt) <= now.getTime())
    throw new Conflict(HOSTED_MESSAGES.expired);

  const session = await stripe.create({
    orderId: order.id,
    amountCents: order.totalCents,
    email: order.customerEmail,
    description: `${ctx.config.brand.name} order #${orderNumberOf(order)}`,
    successUrl: `${origin}/checkout-success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${origin}/checkout/pay/${encodeURIComponent(paymentIntentId)}`,
    // Fixed per order (not "now + 31 min"): a second click must send the very same parameters,
    // or Stripe refuses the idempotency key instead of answering the same session.
    expiresAt: new Date(Date.parse(order.holdExpiresAt) + SESSION_MINUTES * 60_000),
    idempotencyKey: `checkout-session-${order.id}-${paymentIntentId}`,
  });
  await ctx.db.updateTable("orders").set({ checkoutSessionId: session.id }).where("id", "=", order.id).execute();
  if (!session.url) throw new Conflict(HOSTED_MESSAGES.expired);
  return session.url;
}

/**
 * The buyer is back from Stripe's page, or Stripe's checkout.session.completed webhook arrived
 * (either first, both, or again). The session made its own PaymentIntent: the order takes it
 * over (so confirmation, refunds and the order number follow the payment that was really made),
 * the Payment Element's unused intent is cancelled, and the one confirmation service does the rest.
 * Null when the session is none of this store's orders.
 */
export async function completeHostedCheckout(ctx: AppContext, sessionId: string): Promise<ConfirmOutcome | null> {
  const stripe = hostedProvider(ctx);
  const order = await ctx.db
    .selectFrom("orders")
    .select(["id", "paymentIntentId", "paidAt", "totalCents"])
    .where("checkoutSessionId", "=", sessionId)
    .executeTakeFirst();
  if (!order?.paymentIntentId) return null;
  const session = await stripe.retrieve(sessionId);
  if (!session.paid || !session.paymentIntentId) {
    return { status: "pending", orderId: order.id, orderNumber: orderNumberOf(order) };
  }
  const paid = session.paymentIntentId;
  if (order.paymentIntentId !== paid && !order.paidAt) {
    // Paid twice (the Payment Element in another tab, and Stripe's page): the order keeps the
    // first payment and the second goes back.
    const first = await paymentsFor(ctx).retrieveIntent(order.paymentIntentId);
    if (first.status === "succeeded") return refundSecondPayment(ctx, paid, order.totalCents, order.paymentIntentId);
  }
  if (order.paymentIntentId !== paid) {
    const taken = await ctx.db
      .updateTable("orders")
      .set({ paymentIntentId: paid, updatedAt: ctx.clock.now().toISOString() })
      .where("id", "=", order.id)
      .where("paymentIntentId", "=", order.paymentIntentId)
      .where("paidAt", "is", null)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) {
      await stripe.cancel(order.paymentIntentId);
    } else {
      const now = await ctx.db
        .selectFrom("orders")
        .select(["paymentIntentId", "paidAt"])
        .where("id", "=", order.id)
        .executeTakeFirstOrThrow();
      if (now.paymentIntentId !== paid && now.paidAt) return refundSecondPayment(ctx, paid, order.totalCents, now.paymentIntentId!);
    }
  }
  return confirmPayment(ctx, paid);
}

async function refundSecondPayment(ctx: AppContext, second: string, amountCents: number, kept: string): Promise<ConfirmOutcome> {
  await paymentsFor(ctx).refund({ paymentIntentId: second, amountCents, idempotencyKey: `double-payment-${second}` });
  logWarning(`Payment ${second} paid an order already paid by ${kept}: refunded in full.`);
  return confirmPayment(ctx, kept);
}

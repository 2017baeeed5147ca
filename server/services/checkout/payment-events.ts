import type Stripe from "stripe";
import type { AppContext } from "#server/context";
import { Invalid, NotFound } from "#server/errors";
import { verifyStripeEvent } from "#server/integrations/payments/stripe";
import { expireOrder } from "#server/services/cart/holds";
import { raiseAlert } from "#server/services/alerts/alerts";
import { Burst } from "#server/services/alerts/burst";
import { completeHostedCheckout } from "./hosted-checkout";
import { confirmPayment, type ConfirmOutcome } from "./order-confirmation";

/** What became of one provider event. */
export type PaymentEventOutcome =
  | { duplicate: true }
  | { duplicate: false; action: "confirmed"; outcome: ConfirmOutcome }
  | { duplicate: false; action: "released"; orderId: number }
  /** A declined card: the hold stays so the buyer can try another card; its expiry releases it. */
  | { duplicate: false; action: "kept"; orderId: number | null }
  /** An event type the store does not act on, or a payment that is not one of this store's orders. */
  | { duplicate: false; action: "ignored" };

type StripeEventLike = Pick<Stripe.Event, "id" | "type" | "data">;

function paymentIntentIdOf(event: StripeEventLike): string | null {
  if (!event.type.startsWith("payment_intent.")) return null;
  const object = event.data.object as { id?: unknown; object?: unknown };
  return object.object === "payment_intent" && typeof object.id === "string" ? object.id : null;
}

/** Stripe's hosted Checkout (buyers without JavaScript): a session that was paid. */
function checkoutSessionIdOf(event: StripeEventLike): string | null {
  if (event.type !== "checkout.session.completed" && event.type !== "checkout.session.async_payment_succeeded") return null;
  const object = event.data.object as { id?: unknown; object?: unknown };
  return object.object === "checkout.session" && typeof object.id === "string" ? object.id : null;
}

async function actOnCheckoutSession(ctx: AppContext, sessionId: string): Promise<PaymentEventOutcome> {
  const outcome = await completeHostedCheckout(ctx, sessionId);
  return outcome ? { duplicate: false, action: "confirmed", outcome } : { duplicate: false, action: "ignored" };
}

async function orderIdFor(ctx: AppContext, paymentIntentId: string): Promise<number | null> {
  const order = await ctx.db.selectFrom("orders").select("id").where("paymentIntentId", "=", paymentIntentId).executeTakeFirst();
  return order?.id ?? null;
}

/** Bad webhook signatures that make a burst, in one process. */
export const SIGNATURE_BURST = 5;
export const SIGNATURE_BURST_MS = 60_000;
const signatureFailures = new Burst(SIGNATURE_BURST, SIGNATURE_BURST_MS);

/**
 * A Stripe webhook's event, once its signature over the raw body checks out. Anything else (no
 * webhook secret configured, a forged or altered body) throws Invalid: nothing in it can be trusted.
 */
export function verifiedStripeEvent(ctx: AppContext, rawBody: string, signature: string): Stripe.Event {
  const payments = ctx.config.payments;
  if (payments.mode !== "stripe" || !payments.webhookSecret) throw new Invalid("Stripe webhooks are not configured.");
  try {
    return verifyStripeEvent(rawBody, signature, payments.webhookSecret, payments.secretKey);
  } catch {
    // One bad signature is a stray request; a burst is a wrong STRIPE_WEBHOOK_SECRET or an attack.
    if (signatureFailures.note(ctx.clock.now().getTime())) {
      void raiseAlert(
        ctx,
        "webhook-signatures",
        `${SIGNATURE_BURST} Stripe webhook deliveries in ${SIGNATURE_BURST_MS / 1000} s had a signature that does not check out: is STRIPE_WEBHOOK_SECRET the endpoint's signing secret?`,
      );
    }
    throw new Invalid("Invalid signature.");
  }
}

/**
 * A verified Stripe webhook event, processed once per event id whatever Stripe redelivers. The
 * event only says which payment to look at: `confirmPayment` asks Stripe for the payment's real
 * state, so events arriving late, twice, or before or after the buyer's own confirm call all lead
 * to the one order transition. When processing fails the event is forgotten again, so that
 * Stripe's retry (it retries any non-2xx answer) gets another go.
 */
export async function handleStripeEvent(ctx: AppContext, event: StripeEventLike): Promise<PaymentEventOutcome> {
  const paymentIntentId = paymentIntentIdOf(event);
  const inserted = await ctx.db
    .insertInto("paymentEvents")
    .values({ id: event.id, type: event.type, paymentIntentId, receivedAt: ctx.clock.now().toISOString() })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return { duplicate: true };

  try {
    const sessionId = checkoutSessionIdOf(event);
    if (sessionId) return await actOnCheckoutSession(ctx, sessionId);
    return await act(ctx, event.type, paymentIntentId);
  } catch (error) {
    await ctx.db.deleteFrom("paymentEvents").where("id", "=", event.id).execute();
    throw error;
  }
}

async function act(ctx: AppContext, type: string, paymentIntentId: string | null): Promise<PaymentEventOutcome> {
  if (!paymentIntentId) return { duplicate: false, action: "ignored" };
  switch (type) {
    case "payment_intent.succeeded": {
      try {
        return { duplicate: false, action: "confirmed", outcome: await confirmPayment(ctx, paymentIntentId) };
      } catch (error) {
        // A payment of the same Stripe account that is none of this store's orders.
        if (error instanceof NotFound) return { duplicate: false, action: "ignored" };
        throw error;
      }
    }
    case "payment_intent.canceled": {
      const orderId = await orderIdFor(ctx, paymentIntentId);
      if (orderId === null) return { duplicate: false, action: "ignored" };
      await expireOrder(ctx, orderId);
      return { duplicate: false, action: "released", orderId };
    }
    case "payment_intent.payment_failed":
      return { duplicate: false, action: "kept", orderId: await orderIdFor(ctx, paymentIntentId) };
    default:
      return { duplicate: false, action: "ignored" };
  }
}

import Stripe from "stripe";
import type { HostedCheckoutView, IntentStatus, PaymentProvider } from "./types";

function hostedView(session: Stripe.Checkout.Session): HostedCheckoutView {
  const orderId = Number(session.metadata?.orderId);
  const intent = session.payment_intent;
  return {
    id: session.id,
    url: session.url,
    paid: session.payment_status === "paid",
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    paymentIntentId: typeof intent === "string" ? intent : (intent?.id ?? null),
    orderId: Number.isInteger(orderId) && orderId > 0 ? orderId : null,
  };
}

/** Stripe PaymentIntents. Every write carries an idempotency key, so a retried request charges once. */
export function stripePayments(secretKey: string): PaymentProvider {
  const stripe = new Stripe(secretKey, { maxNetworkRetries: 2 });
  return {
    mode: "stripe",
    async createIntent({ amountCents, orderId, email, idempotencyKey }) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: amountCents,
          currency: "usd",
          receipt_email: email,
          metadata: { orderId: String(orderId) },
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey },
      );
      if (!intent.client_secret) throw new Error("Stripe returned a payment without a client secret.");
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async retrieveIntent(id) {
      // The charge comes along (no second request) for what was refunded of it: its amount_refunded
      // counts pending refunds too, so a payment being refunded never becomes a paid order.
      const intent = await stripe.paymentIntents.retrieve(id, { expand: ["latest_charge"] });
      const orderId = Number(intent.metadata?.orderId);
      const charge = intent.latest_charge;
      return {
        id: intent.id,
        status: intent.status as IntentStatus,
        amountCents: intent.amount,
        lastError: intent.last_payment_error?.message ?? null,
        orderId: Number.isInteger(orderId) && orderId > 0 ? orderId : null,
        refundedCents: charge && typeof charge === "object" ? charge.amount_refunded : 0,
      };
    },
    async cancelIntent(id) {
      try {
        await stripe.paymentIntents.cancel(id, {}, { idempotencyKey: `cancel-${id}` });
      } catch (error) {
        // Already succeeded or canceled: the confirmation path decides what happens next.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
    },
    async refund({ paymentIntentId, amountCents, idempotencyKey }) {
      const refund = await stripe.refunds.create(
        { payment_intent: paymentIntentId, amount: amountCents, metadata: { idempotencyKey } },
        { idempotencyKey },
      );
      return { id: refund.id, status: refund.status ?? "pending" };
    },
    async findRefund({ paymentIntentId, idempotencyKey }) {
      // A payment has few refunds: the first page holds them all (Stripe's most is 100).
      const { data } = await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 100 });
      const refund = data.find((r) => r.metadata?.idempotencyKey === idempotencyKey && r.status !== "failed" && r.status !== "canceled");
      return refund ? { id: refund.id, status: refund.status ?? "pending", amountCents: refund.amount } : null;
    },
    async createHostedCheckout({ orderId, amountCents, email, description, successUrl, cancelUrl, expiresAt, idempotencyKey }) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          // The order is already priced (items, shipping, tax): Stripe charges its total as one line.
          line_items: [{ quantity: 1, price_data: { currency: "usd", unit_amount: amountCents, product_data: { name: description } } }],
          customer_email: email,
          client_reference_id: String(orderId),
          metadata: { orderId: String(orderId) },
          payment_intent_data: { receipt_email: email, metadata: { orderId: String(orderId) } },
          success_url: successUrl,
          cancel_url: cancelUrl,
          expires_at: Math.floor(expiresAt.getTime() / 1000),
        },
        { idempotencyKey },
      );
      return hostedView(session);
    },
    async retrieveHostedCheckout(id) {
      return hostedView(await stripe.checkout.sessions.retrieve(id));
    },
    async expireHostedCheckout(id) {
      try {
        return hostedView(await stripe.checkout.sessions.expire(id, {}, { idempotencyKey: `expire-${id}` }));
      } catch (error) {
        // Not open any more (paid, or expired already): say how it ended.
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        return hostedView(await stripe.checkout.sessions.retrieve(id));
      }
    },
  };
}

/** Verifies a webhook's signature against the raw body; throws when it does not match. */
export function verifyStripeEvent(rawBody: string, signature: string, webhookSecret: string, secretKey: string): Stripe.Event {
  return new Stripe(secretKey).webhooks.constructEvent(rawBody, signature, webhookSecret);
}

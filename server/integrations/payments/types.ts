/** What the store needs from a card processor; Stripe and the local test processor both provide it. */
export type IntentStatus =
  "requires_payment_method" | "requires_confirmation" | "requires_action" | "processing" | "succeeded" | "canceled";

export interface PaymentIntentView {
  id: string;
  status: IntentStatus;
  amountCents: number;
  /** The provider's message for the last failed attempt, e.g. "Your card was declined." */
  lastError: string | null;
  orderId: number | null;
  /**
   * Refunded, or being refunded, at the provider: a payment with any refund never becomes a paid
   * order (decision 0038). Stripe: the latest charge's `amount_refunded`.
   */
  refundedCents: number;
}

export interface RefundView {
  id: string;
  status: string;
  amountCents: number;
}

export interface CreatedIntent {
  id: string;
  clientSecret: string;
}

/** A provider's own payment page (Stripe Checkout), for buyers whose browser runs no JavaScript. */
export interface HostedCheckoutInput {
  orderId: number;
  amountCents: number;
  email: string;
  /** The one line the page shows, e.g. "Legacy order #ABCD1234". */
  description: string;
  successUrl: string;
  cancelUrl: string;
  expiresAt: Date;
  idempotencyKey: string;
}

export interface HostedCheckoutView {
  id: string;
  /** Where to send the buyer; null once the session is complete or expired. */
  url: string | null;
  paid: boolean;
  status: "open" | "complete" | "expired";
  /** The payment the session made (it creates its own). */
  paymentIntentId: string | null;
  orderId: number | null;
}

export interface PaymentProvider {
  readonly mode: "stripe" | "test";
  createIntent(input: { amountCents: number; orderId: number; email: string; idempotencyKey: string }): Promise<CreatedIntent>;
  retrieveIntent(id: string): Promise<PaymentIntentView>;
  /** Best effort: an intent that can no longer be paid (its hold expired). */
  cancelIntent(id: string): Promise<void>;
  /**
   * Refunds a payment. The same idempotency key answers the same refund (Stripe for 24 hours, the
   * local processor always); the key also goes with the refund (Stripe: its metadata) so that
   * `findRefund` can find it again after the store lost the answer.
   */
  refund(input: { paymentIntentId: string; amountCents: number; idempotencyKey: string }): Promise<{ id: string; status: string }>;
  /** The refund of this payment made with this idempotency key, or null when there is none. */
  findRefund(input: { paymentIntentId: string; idempotencyKey: string }): Promise<RefundView | null>;
  /** Stripe only: the hosted payment page. */
  createHostedCheckout?(input: HostedCheckoutInput): Promise<HostedCheckoutView>;
  retrieveHostedCheckout?(id: string): Promise<HostedCheckoutView>;
  /** Closes an open session (its hold ran out); answers the session as it now is. */
  expireHostedCheckout?(id: string): Promise<HostedCheckoutView>;
}

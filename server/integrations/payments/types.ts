/** What the store needs from a card processor; Stripe and the local test processor both provide it. */
export type IntentStatus =
  | "requires_payment_method"
  | "requires_confirmation"
  | "requires_action"
  | "processing"
  | "succeeded"
  | "canceled";

export interface PaymentIntentView {
  id: string;
  status: IntentStatus;
  amountCents: number;
  /** The provider's message for the last failed attempt, e.g. "Your card was declined." */
  lastError: string | null;
  orderId: number | null;
}

export interface CreatedIntent {
  id: string;
  clientSecret: string;
}

export interface PaymentProvider {
  readonly mode: "stripe" | "local";
  createIntent(input: { amountCents: number; orderId: number; email: string; idempotencyKey: string }): Promise<CreatedIntent>;
  retrieveIntent(id: string): Promise<PaymentIntentView>;
  /** Best effort: an intent that can no longer be paid (its hold expired). */
  cancelIntent(id: string): Promise<void>;
  refund(input: { paymentIntentId: string; amountCents: number; idempotencyKey: string }): Promise<{ id: string; status: string }>;
}

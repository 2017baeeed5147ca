import type { AppContext } from "#server/context";
import { payLocalIntent, payLocalIntentById } from "#server/integrations/payments/local";
import type { IntentStatus } from "#server/integrations/payments/types";
import { confirmPayment, type ConfirmOutcome } from "./order-confirmation";

/** A test-card payment: declined (the intent stays payable with another card) or paid and confirmed. */
export type TestCardPayment = { paid: false; status: IntentStatus; message: string | null } | { paid: true; confirmation: ConfirmOutcome };

/**
 * Pays a local test-mode intent with a test card and, when it goes through, completes the order
 * through the one confirmation service. The JavaScript checkout knows the intent by its client
 * secret, the no-JavaScript pay page by its id; both land here so they cannot drift apart.
 */
export async function payWithTestCard(
  ctx: AppContext,
  payment: { clientSecret: string } | { paymentIntentId: string },
  cardNumber: string,
): Promise<TestCardPayment> {
  const intent =
    "clientSecret" in payment
      ? await payLocalIntent(ctx, { clientSecret: payment.clientSecret, cardNumber })
      : await payLocalIntentById(ctx, { paymentIntentId: payment.paymentIntentId, cardNumber });
  if (intent.status !== "succeeded") return { paid: false, status: intent.status, message: intent.lastError };
  return { paid: true, confirmation: await confirmPayment(ctx, intent.id) };
}

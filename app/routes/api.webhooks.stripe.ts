import type Stripe from "stripe";
import { jsonError, methodNotAllowed, rest } from "../../server/http/rest";
import { verifyStripeEvent } from "../../server/integrations/payments/stripe";
import { handleStripeEvent } from "../../server/services/payment-events";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/webhooks/stripe: Stripe's payment events. The signature is checked against the raw
 * body before anything is read from it; each event id is processed once. Any answer but 2xx makes
 * Stripe deliver the event again later, so a failure while processing surfaces as a 500.
 */
export const action = rest(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const payments = ctx.config.payments;
  if (payments.mode !== "stripe" || !payments.webhookSecret) return jsonError(404, "Stripe webhooks are not configured.");
  const { secretKey, webhookSecret } = payments;

  const signature = request.headers.get("stripe-signature");
  const payload = await request.text();
  if (!signature) return jsonError(400, "Invalid signature.");
  let event: Stripe.Event;
  try {
    event = verifyStripeEvent(payload, signature, webhookSecret, secretKey);
  } catch {
    return jsonError(400, "Invalid signature.");
  }

  await handleStripeEvent(ctx, event);
  return Response.json({ received: true }, { headers: { "Cache-Control": "no-store" } });
});

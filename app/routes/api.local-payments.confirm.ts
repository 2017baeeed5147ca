import { localCardSchema } from "../../server/contracts/checkout";
import { NotFound } from "../../server/errors";
import { payLocalIntent } from "../../server/integrations/payments/local";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { confirmPayment } from "../../server/services/order-confirmation";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/local-payments/confirm: the local test processor's stand-in for Stripe.js confirming
 * a card payment. Exists only in test mode.
 */
export const action = rest(async ({ request, ctx }) => {
  if (ctx.config.payments.mode !== "test") throw new NotFound("The local test processor is off: payments go through Stripe.");
  const input = await parseJsonBody(request, localCardSchema);
  const intent = await payLocalIntent(ctx, input);
  if (intent.status !== "succeeded") {
    return Response.json({ status: intent.status, message: intent.lastError ?? "The payment did not go through." }, { status: 402 });
  }
  return Response.json(await confirmPayment(ctx, intent.id));
});

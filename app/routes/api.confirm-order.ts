import { confirmOrderSchema } from "../../server/contracts/checkout";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { confirmPayment } from "../../server/services/order-confirmation";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/confirm-order: asks the provider whether the payment succeeded and, if so, completes
 * the order (once, however often it is called). Other fields the spec's client sends are ignored:
 * the order already holds them.
 */
export const action = rest(async ({ request, ctx }) => {
  const { paymentIntentId } = await parseJsonBody(request, confirmOrderSchema);
  const outcome = await confirmPayment(ctx, paymentIntentId);
  const status = outcome.status === "paid" ? 200 : outcome.status === "pending" ? 202 : 402;
  return Response.json(outcome, { status, headers: { "Cache-Control": "no-store" } });
});

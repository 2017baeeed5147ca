import { processOrderSchema } from "../../server/contracts/checkout";
import { cartSessionIdOf } from "../../server/http/cart-session";
import { clientIpOf } from "../../server/http/client-ip";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { processOrder } from "../../server/services/checkout";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/process-order: holds the units and creates the payment; `{clientSecret, paymentIntentId, orderSummary}`. */
export const action = rest(async ({ request, context, ctx }) => {
  const input = await parseJsonBody(request, processOrderSchema);
  const result = await processOrder(ctx, {
    sessionId: await cartSessionIdOf(ctx, request),
    customer: input.customerInfo,
    shippingMethod: input.shippingMethod,
    clientIp: clientIpOf(context),
  });
  return Response.json(result, { status: 201, headers: { "Cache-Control": "no-store" } });
});

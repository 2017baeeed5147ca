import { shippingCalculateSchema } from "../../server/contracts/checkout";
import { toRateView } from "../../server/contracts/checkout-form";
import { cartSessionIdOf } from "../../server/http/cart-session";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { quoteShipping } from "../../server/services/checkout";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/shipping/calculate: rates for this bag to the address, each with the `key` Process Order takes; `[]` when it cannot be shipped there. */
export const action = rest(async ({ request, ctx }) => {
  const { address } = await parseJsonBody(request, shippingCalculateSchema);
  const rates = await quoteShipping(ctx, await cartSessionIdOf(ctx, request), address);
  return Response.json(rates.map(toRateView), { headers: { "Cache-Control": "no-store" } });
});

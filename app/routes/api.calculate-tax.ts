import { calculateTaxSchema } from "../../server/contracts/checkout";
import { cartSessionIdOf } from "../../server/http/cart-session";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { estimateTax } from "../../server/services/tax";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/calculate-tax: the tax Process Order will charge this bag; taxRate is the effective rate. */
export const action = rest(async ({ request, ctx }) => {
  const input = await parseJsonBody(request, calculateTaxSchema);
  const tax = await estimateTax(ctx, {
    sessionId: await cartSessionIdOf(ctx, request),
    country: input.country,
    state: input.state,
    subtotalCents: Math.round(input.subtotal * 100),
    shippingCents: input.shippingCost === undefined ? undefined : Math.round(input.shippingCost * 100),
  });
  return Response.json(tax, { headers: { "Cache-Control": "no-store" } });
});

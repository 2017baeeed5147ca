import { shippingCalculateSchema } from "../../server/contracts/checkout";
import { cartSessionIdOf } from "../../server/http/cart-session";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { quoteShipping } from "../../server/services/checkout";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/shipping/calculate: rates for this bag to the address, `[]` when it cannot be shipped there. */
export const action = rest(async ({ request, ctx }) => {
  const { address } = await parseJsonBody(request, shippingCalculateSchema);
  const rates = await quoteShipping(ctx, await cartSessionIdOf(ctx, request), address);
  return Response.json(
    rates.map((r) => ({ carrier: r.carrier, method: r.method, cost: r.costCents / 100, description: r.description, estimatedDays: r.estimatedDays })),
    { headers: { "Cache-Control": "no-store" } },
  );
});

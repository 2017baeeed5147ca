import { calculateTaxSchema } from "../../server/contracts/checkout";
import { quoteTax } from "../../server/integrations/tax";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/calculate-tax: an estimate for the screen; process-order computes the real tax itself. */
export const action = rest(async ({ request }) => {
  const input = await parseJsonBody(request, calculateTaxSchema);
  const tax = quoteTax({ country: input.country, state: input.state, subtotalCents: Math.round(input.subtotal * 100) });
  return Response.json({ taxRate: tax.taxRate, taxAmount: tax.taxCents / 100, taxLabel: tax.taxLabel });
});

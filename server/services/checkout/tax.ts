import type { TaxView } from "#server/contracts/checkout-form";
import { toDollars } from "#server/contracts/money";
import type { AppContext } from "#server/context";
import { effectiveRate, quoteTax, taxLabelFor } from "#server/integrations/tax";
import { bagLines } from "./checkout";

/**
 * The tax the checkout announces before the order exists: the same quoteTax that Process Order
 * stores, on this browser's bag. Without a bag (an API caller with a bare subtotal) the subtotal
 * counts as one item: per-item exemptions then give the most tax that subtotal could carry.
 * The shipping cost is the rate the buyer has picked, used for this estimate only.
 */
export async function estimateTax(
  ctx: AppContext,
  input: { sessionId: string | null; country: string; state: string; subtotalCents?: number; shippingCents?: number },
): Promise<TaxView> {
  const bag = await bagLines(ctx, input.sessionId);
  const lines = bag.length > 0 ? bag : [{ unitCents: input.subtotalCents ?? 0, quantity: 1 }];
  const tax = quoteTax({ country: input.country, state: input.state, lines, shippingCents: input.shippingCents });
  return { taxRate: tax.taxRate, taxAmount: toDollars(tax.taxCents), taxLabel: tax.taxLabel };
}

/** An order's tax as it was stored when the order was made; nothing is computed again. */
export function storedTaxView(order: { taxCents: number; subtotalCents: number; country: string; state: string }): TaxView {
  return {
    taxRate: effectiveRate(order.taxCents, order.subtotalCents),
    taxAmount: toDollars(order.taxCents),
    taxLabel: taxLabelFor(order.country, order.state),
  };
}

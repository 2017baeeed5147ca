import { US_STATE_TAX_RULES_2025, type StateTaxRule } from "./us-state-rules";

export { US_STATE_TAX_RULES_2025 } from "./us-state-rules";

/** One line of the bag as tax sees it: what one item sold for, and how many. */
export interface TaxableLine {
  unitCents: number;
  quantity: number;
}

export interface TaxQuote {
  taxCents: number;
  /** The effective rate, a fraction: taxCents ÷ the goods subtotal (0 when nothing is sold). */
  taxRate: number;
  taxLabel: string;
}

/** Rates are held in thousandths of a percent so 6.875 % stays an integer. */
const MILLI_PER_PERCENT = 1000;
const PERCENT_UNITS = 100 * MILLI_PER_PERCENT;

export function taxLabelFor(country: string, state?: string | null): string {
  const rule = ruleFor(country, state);
  return rule ? `${rule.name} Sales Tax` : "Sales Tax";
}

/**
 * The rate shown beside the tax: what is really charged on the goods. Six decimals, without float
 * noise; never 0 while some tax is charged, since the screen shows the tax line only above 0.
 */
export function effectiveRate(taxCents: number, subtotalCents: number): number {
  if (subtotalCents <= 0 || taxCents <= 0) return 0;
  return Math.max(1e-6, Math.round((taxCents / subtotalCents) * 1e6) / 1e6);
}

/**
 * Sales tax on an order shipped to `state`: the destination state's rule applied to every item
 * (clothing exemptions per item), and to the shipping charge where the state taxes delivery, in
 * the share the taxable goods have of the subtotal. Nothing outside the US (the store does not
 * register for VAT/GST; duties are the buyer's at import). Rounded half up to the cent once, on
 * the whole order: the one computation the checkout, the order and its e-mail all show.
 */
export function quoteTax(input: { country: string; state?: string | null; lines: TaxableLine[]; shippingCents?: number }): TaxQuote {
  const subtotalCents = input.lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);
  const taxLabel = taxLabelFor(input.country, input.state);
  const rule = ruleFor(input.country, input.state);
  if (!rule || subtotalCents <= 0) return { taxCents: 0, taxRate: 0, taxLabel };

  // Cents × thousandths of a percent: exact integers until the one rounding below.
  const goodsUnits = input.lines.reduce((sum, line) => sum + taxUnitsOfItem(rule, line.unitCents) * line.quantity, 0);
  const shippingCents = rule.taxesShipping ? Math.max(0, input.shippingCents ?? 0) : 0;
  // Shipping follows the goods: taxed as if spread over them by price, so goods × (1 + shipping
  // ÷ subtotal). BigInt because cents × milli-percent × cents outgrows 2^53 on large orders.
  const numerator = BigInt(goodsUnits) * BigInt(subtotalCents + shippingCents);
  const denominator = BigInt(subtotalCents) * BigInt(PERCENT_UNITS);
  const taxCents = Number((numerator * 2n + denominator) / (denominator * 2n));
  return { taxCents, taxRate: effectiveRate(taxCents, subtotalCents), taxLabel };
}

function ruleFor(country: string, state?: string | null): StateTaxRule | undefined {
  if (country.trim().toUpperCase() !== "US") return undefined;
  return US_STATE_TAX_RULES_2025[(state ?? "").trim().toUpperCase()];
}

/** One item's tax in cents × thousandths of a percent, under the state's clothing rule. */
function taxUnitsOfItem(rule: StateTaxRule, unitCents: number): number {
  const rateMilli = Math.round(rule.ratePercent * MILLI_PER_PERCENT);
  const clothing = rule.clothing;
  if (!clothing) return unitCents * rateMilli;
  switch (clothing.kind) {
    case "exempt":
      return 0;
    case "exemptBelow": {
      if (unitCents >= clothing.limitCents) return unitCents * rateMilli;
      return unitCents * Math.max(0, rateMilli - Math.round(clothing.exemptPercent * MILLI_PER_PERCENT));
    }
    case "exemptUpTo":
      return Math.max(0, unitCents - clothing.limitCents) * rateMilli;
  }
}

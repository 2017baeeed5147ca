import { US_STATE_SALES_TAX_2025 } from "./us-state-rates";

export interface TaxQuote {
  /** A fraction: 0.0725 for 7.25 %. */
  taxRate: number;
  taxCents: number;
  taxLabel: string;
}

/**
 * Sales tax on the goods subtotal: the destination state's rate for US addresses, nothing
 * elsewhere (the store does not register for VAT/GST; duties are the buyer's at import).
 * Rounded half-up to the cent once, on the whole subtotal.
 */
export function quoteTax(input: { country: string; state?: string | null; subtotalCents: number }): TaxQuote {
  const country = input.country.trim().toUpperCase();
  const state = (input.state ?? "").trim().toUpperCase();
  const entry = country === "US" ? US_STATE_SALES_TAX_2025[state] : undefined;
  if (!entry || entry.ratePercent === 0 || input.subtotalCents <= 0) {
    return { taxRate: 0, taxCents: 0, taxLabel: entry ? `${entry.name} Sales Tax` : "Sales Tax" };
  }
  // Work in hundred-thousandths of a percent so 6.875 % stays exact.
  const taxCents = Math.round((input.subtotalCents * Math.round(entry.ratePercent * 1000)) / 100_000);
  return { taxRate: entry.ratePercent / 100, taxCents, taxLabel: `${entry.name} Sales Tax` };
}

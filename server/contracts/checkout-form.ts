import { formatUsd, toDollars } from "./money";
import type { ShippingRate } from "./shipping-rate";

/**
 * What the checkout screen and its page doors share: the form's values, the rate and tax views
 * in dollars, and the few rules of the screen itself (a complete address, the default rate).
 */

export interface CheckoutValues {
  email: string;
  name: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

export const VALUE_FIELDS = ["email", "name", "phone", "street", "city", "state", "zipCode", "country"] as const;

export const EMPTY_VALUES: CheckoutValues = { email: "", name: "", phone: "", street: "", city: "", state: "", zipCode: "", country: "US" };

/** A form's fields as strings (a missing or file field reads as empty). */
export function valuesFrom(form: FormData): CheckoutValues {
  const read = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.slice(0, 300) : "";
  };
  const values = { ...EMPTY_VALUES };
  for (const field of VALUE_FIELDS) values[field] = read(field);
  values.country = (values.country || "US").toUpperCase();
  values.state = normalizeState(values.state);
  return values;
}

/** docs/spec.md §5: the state is upper case, letters only, two at most. */
export const normalizeState = (state: string) =>
  state
    .toUpperCase()
    .replace(/[^A-Z]/g, "")
    .slice(0, 2);

export interface Address {
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

/** The address once it is complete enough to quote (docs/spec.md §9: street, city, zip, country, and state if US). */
export function completeAddress(values: CheckoutValues): Address | null {
  const street = values.street.trim();
  const city = values.city.trim();
  const zipCode = values.zipCode.trim();
  const country = values.country.trim().toUpperCase();
  const state = country === "US" ? normalizeState(values.state) : "";
  if (!street || !city || !zipCode || country.length !== 2) return null;
  if (country === "US" && state.length !== 2) return null;
  return { street, city, state, zipCode, country };
}

/**
 * A rate as POST /api/shipping/calculate answers it and the screen shows it, in dollars. `key`
 * is what Process Order takes back as shippingMethod: the screen never builds it itself.
 */
export type RateView = Omit<ShippingRate, "costCents"> & { cost: number };

/** A quoted rate (cents) as the screen and the API show it (dollars). */
export const toRateView = (rate: ShippingRate): RateView => ({
  key: rate.key,
  carrier: rate.carrier,
  method: rate.method,
  cost: toDollars(rate.costCents),
  description: rate.description,
  estimatedDays: rate.estimatedDays,
});

/** docs/spec.md §9: ground_saver when offered, else the cheapest. */
export function defaultRateKey(rates: RateView[]): string {
  const saver = rates.find((rate) => rate.method === "ground_saver");
  if (saver) return saver.key;
  const cheapest = rates.reduce<RateView | null>((best, rate) => (!best || rate.cost < best.cost ? rate : best), null);
  return cheapest?.key ?? "";
}

/** Keeps the buyer's choice when the new rates still offer it; otherwise the default. */
export function keepOrDefault(rates: RateView[], chosen: string): string {
  return rates.some((rate) => rate.key === chosen) ? chosen : defaultRateKey(rates);
}

export interface TaxView {
  taxRate: number;
  taxAmount: number;
  taxLabel: string;
}

export const NO_TAX: TaxView = { taxRate: 0, taxAmount: 0, taxLabel: "Sales Tax" };

/** "New York Sales Tax (4.0%)": the label and the rate to one decimal (docs/spec.md §2). */
export const taxTitle = (tax: TaxView) => `${tax.taxLabel} (${(tax.taxRate * 100).toFixed(1)}%)`;

/** docs/spec.md §2: a tax under a cent reads "< $0.01". */
export const taxAmountText = (amount: number) => (amount < 0.01 ? "< $0.01" : formatUsd(amount));

export function estimatedDaysText(days: number): string {
  return days <= 1 ? "Next business day" : `Estimated ${days} business days`;
}

/** The big order buttons: their "… - $1,234.56" labels must fit a 320 px phone, wrapping if ever needed. */
export const ORDER_BUTTON_CLASS = "h-auto min-h-12 w-full px-4 py-3 text-sm whitespace-normal sm:text-base";

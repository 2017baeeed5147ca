/**
 * Money, one rule for all of it: integer cents in the database and the services, dollars with two
 * decimals in the REST bodies and on the screens. Zod-free and dependency-free, so the browser's
 * checkout and the admin screens import it as they are (decision 0029).
 */

const CENTS_PER_DOLLAR = 100;

/**
 * The one rounding to a whole cent: half a cent goes away from zero (12.5 → 13, −12.5 → −13), as
 * `formatUsd` shows it. Non-negative amounts, which is every amount the store keeps, round as
 * Math.round does.
 */
export function roundCents(cents: number): number {
  const whole = Math.round(Math.abs(cents));
  // `|| 0`: a negative amount under half a cent is no "−0" in a JSON body.
  return cents < 0 ? -whole || 0 : whole;
}

/** Cents → dollars for a REST body or a screen (1999 → 19.99); a fraction of a cent is rounded first. */
export function toDollars(cents: number): number {
  return roundCents(cents) / CENTS_PER_DOLLAR;
}

/** Dollars a person or a client sent (19.99) → whole cents (1999), rounded once. */
export function toCents(dollars: number): number {
  return roundCents(dollars * CENTS_PER_DOLLAR);
}

/**
 * Whole cents only: 12.34 is a price, 12.345 a typo. The tolerance absorbs the float product
 * (0.29 × 100 is 28.999999999999996), not a third decimal.
 */
export function isWholeCents(dollars: number): boolean {
  const cents = dollars * CENTS_PER_DOLLAR;
  return Math.abs(Math.round(cents) - cents) < 1e-6;
}

/**
 * Cents less a whole-number percentage (spec §9: price × (1 − discount/100)), rounded to the cent
 * once, on the product of integers so 15 % off 1999 cents does not pick up float noise first.
 */
export function centsAfterPercentOff(cents: number, percentOff: number): number {
  return roundCents((cents * (100 - percentOff)) / 100);
}

/** A sum of dollar amounts, exact to the cent: 0.1 + 0.2 is 0.3, not 0.30000000000000004. */
export function addDollars(...amounts: number[]): number {
  return toDollars(amounts.reduce((sum, amount) => sum + toCents(amount), 0));
}

/**
 * A vendor's decimal text ("7.45", "12", "0.125") → cents, read from the digits rather than through
 * parseFloat, which drifts on long decimals. A third decimal rounds half up; anything that is not a
 * plain non-negative decimal is null.
 */
export function centsFromDecimalText(amount: string): number | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) return null;
  const thousandths = Number(((match[2] ?? "") + "000").slice(0, 3));
  return Number(match[1]) * CENTS_PER_DOLLAR + Math.round(thousandths / 10);
}

/** "1036.80": two decimals, no sign or grouping, for CSV cells, form fields and vendor APIs. */
export function formatDollarAmount(dollars: number): string {
  return dollars.toFixed(2);
}

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** "$1,036.80": how every screen and e-mail shows a dollar amount. */
export function formatUsd(dollars: number): string {
  return usd.format(dollars);
}

/** The same, straight from cents, for the e-mails that are built from stored rows. */
export function formatUsdCents(cents: number): string {
  return formatUsd(toDollars(cents));
}

/**
 * The local test processor's card fields, checked lightly in the browser and again by the pay
 * page's action: only the number decides the outcome, the expiry and CVC just have to look right.
 */
export interface CardFields {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

export const TEST_CARDS = [
  { number: "4242 4242 4242 4242", outcome: "Succeeds" },
  { number: "4000 0000 0000 0002", outcome: "Declines" },
] as const;

export const digitsOf = (text: string) => text.replace(/\D/g, "");

/** "4242424242424242" → "4242 4242 4242 4242", as a card reads. */
export const formatCardNumber = (text: string) =>
  digitsOf(text)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

/** "1234" → "12 / 34" while typing. */
export function formatExpiry(text: string): string {
  const digits = digitsOf(text).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

export function cardErrors(card: CardFields): Partial<Record<keyof CardFields, string>> {
  const errors: Partial<Record<keyof CardFields, string>> = {};
  const number = digitsOf(card.cardNumber);
  if (number.length < 13 || number.length > 19 || /[^\d\s-]/.test(card.cardNumber)) errors.cardNumber = "Enter a valid card number.";
  const expiry = /^\s*(\d{2})\s*\/?\s*(\d{2})\s*$/.exec(card.expiry);
  if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) errors.expiry = "Enter the expiry as MM / YY.";
  if (!/^\s*\d{3,4}\s*$/.test(card.cvc)) errors.cvc = "Enter the 3 or 4 digit CVC.";
  return errors;
}

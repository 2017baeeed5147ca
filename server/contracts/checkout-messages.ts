/* The checkout's texts without zod, for the browser (decision 0029); checkout.ts re-exports them. */
export const CHECKOUT_MESSAGES = {
  missingTitle: "Missing information",
  missing: "Please fill in all required fields and select a shipping method.",
  noRatesTitle: "Invalid Shipping Address",
  noRates: "Please verify your address. Unable to calculate shipping rates for the provided address.",
  noRatesAtSubmit: "Unable to ship to this address. Please verify your address details.",
  methodGone: "The shipping option you chose is no longer available. Please choose again.",
  emptyCartTitle: "Cart is empty",
  emptyCart: "Add some items to your cart before checking out.",
  soldOut: (name: string) => `Sorry, ${name} just sold out.`,
  onlyLeft: (name: string, left: number) => `Only ${left} of ${name} left. Please update your bag.`,
  unavailable: (name: string) => `${name} can't be bought right now. Please remove it from your bag.`,
  processFailed: "Failed to process order. Please try again.",
} as const;

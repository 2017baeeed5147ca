/**
 * The checkout screen's texts from docs/spec.md §8 that the contract (server/contracts/checkout.ts)
 * does not carry yet. Plain constants, safe for the browser and for the page doors alike.
 */
export const CHECKOUT_UI = {
  errorTitle: "Error",
  calculating: "Calculating shipping rates...",
  shippingFailedTitle: "Shipping calculation failed",
  shippingFailed: "Unable to calculate shipping rates. Please try again.",
  notReadyTitle: "Payment system not ready",
  notReady: "Please wait for the payment system to load.",
  paymentFailedTitle: "Payment Failed",
  paymentFailedFallback: "The payment did not go through.",
  paymentErrorTitle: "Payment Error",
  unexpected: "An unexpected error occurred.",
  successTitle: "Payment Successful!",
  success: "Thank you for your purchase. You will receive a confirmation email shortly.",
  pendingTitle: "Processing order",
  pending: "Please complete your payment to finish the order.",
  // Ours, not the spec's: the no-JavaScript "rates" step asked with an incomplete address.
  addressIncomplete: "Enter your street, city, ZIP or postal code (and state for US addresses) to see shipping options.",
  holdExpiredTitle: "Reservation expired",
  holdExpired: "Your reservation ran out and the items went back on sale. Process the order again to reserve them.",
} as const;

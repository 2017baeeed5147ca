import type { OrderSummary } from "#server/contracts/checkout";

// Apart from payment-section.tsx, which loads order-payment.tsx lazily: both name it.
/** An order Process Order made, as the checkout page keeps it while the buyer pays. */
export interface ProcessedOrder {
  clientSecret: string;
  paymentIntentId: string;
  orderSummary: OrderSummary;
  /** When the hold ends, on this browser's clock. */
  deadline: number;
  /** The bag the order was made from: a change of the bag voids it. */
  bagKey: string;
}

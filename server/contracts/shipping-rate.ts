/**
 * A shipping rate in cents, as every provider quotes it (Shippo, the local table) and the
 * checkout offers it. The screen and the REST answer show it in dollars (`RateView`).
 */
export interface ShippingRate {
  /** What Process Order takes as shippingMethod, and the order keeps: "usps-ground_saver". */
  key: string;
  carrier: string;
  method: string;
  costCents: number;
  description: string;
  estimatedDays: number;
}

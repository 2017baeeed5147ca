import type { ShippingRate } from "#server/contracts/shipping-rate";

export interface Parcel {
  weightLbs: number;
  lengthIn: number;
  widthIn: number;
  heightIn: number;
}

/** One order line as customs sees it (international labels). */
export interface ParcelContent {
  description: string;
  quantity: number;
  /** Of one unit. */
  weightLbs: number;
  /** Of the whole line, as the buyer paid for it. */
  valueCents: number;
}

/** What goes in the box, as the packer reads it: the order number the customer knows and each line. */
export interface PackingSlip {
  orderNumber: string;
  lines: { name: string; size: string | null; color: string | null; quantity: number }[];
}

export interface ShippingAddress {
  name: string;
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
  phone?: string;
  email?: string;
}

export interface RateQuote extends ShippingRate {
  /** The provider's own rate id (Shippo's object_id), needed to buy the label. */
  providerRateId?: string;
}

export interface BoughtLabel {
  labelUrl: string;
  trackingNumber: string;
  carrier: string;
  costCents: number;
  /** The provider's own id of the purchase (Shippo's transaction), when it has one. */
  providerRef?: string;
}

/** A purchase found again by its idempotency key: what the label row lacks after a crash. */
export type FoundLabel = Pick<BoughtLabel, "labelUrl" | "trackingNumber" | "providerRef">;

export interface ShippingProvider {
  readonly mode: "shippo" | "local";
  quote(
    to: Pick<ShippingAddress, "street" | "city" | "state" | "zipCode" | "country"> & Partial<ShippingAddress>,
    parcel: Parcel,
  ): Promise<RateQuote[]>;
  /**
   * Buys one label. The idempotency key goes with the purchase (Shippo: the transaction's
   * metadata; local: it names the label, so the same key is the same label, never a second);
   * `remember` is called with what finds the purchase again (Shippo's rate) before buying.
   */
  buyLabel(input: {
    orderId: number;
    to: ShippingAddress;
    parcel: Parcel;
    methodKey: string;
    contents?: ParcelContent[];
    /** Printed as a second page by the local label; a carrier's label (Shippo) has no room for it. */
    packingSlip?: PackingSlip;
    /** None: a purchase of its own (the admin's shipping test). */
    idempotencyKey?: string;
    remember?: (providerRef: string) => Promise<void>;
  }): Promise<BoughtLabel>;
  /** The label bought with this key (and the reference `remember` got), or null when none was bought. */
  findLabel(input: { orderId: number; idempotencyKey: string; providerRef: string | null }): Promise<FoundLabel | null>;
}

/**
 * "usps-ground_saver": how the checkout names a rate. Lower case throughout, and only the
 * characters the shippingMethod contract allows, so every key a rate carries is one Process
 * Order accepts, whatever case the carrier's service token came in.
 */
export const methodKeyOf = (rate: { carrier: string; method: string }) =>
  `${rate.carrier.toLowerCase().replace(/[^a-z0-9]+/g, "")}-${rate.method.toLowerCase().replace(/[^a-z0-9_]+/g, "_")}`;

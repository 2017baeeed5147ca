import type { AppContext } from "../../context";
import { localShipping } from "./local";
import type { Parcel, ShippingProvider } from "./types";

export type { BoughtLabel, Parcel, RateQuote, ShippingAddress, ShippingProvider } from "./types";
export { methodKeyOf } from "./types";

/** The local rate table and PDF labels; Shippo joins when SHIPPO_API_KEY is set (checkout issue). */
export function shippingFor(ctx: AppContext): ShippingProvider {
  return localShipping(ctx);
}

/** One parcel for the whole order: weights add up, the box is the largest item's. */
export function parcelFor(lines: { quantity: number; weight: number; length: number; width: number; height: number }[]): Parcel {
  return {
    weightLbs: Math.max(0.1, lines.reduce((sum, l) => sum + l.weight * l.quantity, 0)),
    lengthIn: Math.max(1, ...lines.map((l) => l.length)),
    widthIn: Math.max(1, ...lines.map((l) => l.width)),
    heightIn: Math.max(1, ...lines.map((l) => l.height)),
  };
}

import type { AppContext } from "#server/context";
import { localShipping } from "./local";
import { shippoShipping } from "./shippo";
import type { Parcel, ShippingProvider } from "./types";

export type { BoughtLabel, FoundLabel, Parcel, RateQuote, ShippingAddress, ShippingProvider } from "./types";
export { methodKeyOf } from "./types";
export { methodDescriptionOf } from "./local-rates";
export { renderPackingSlipPdf } from "./label-pdf";

/** Shippo rates and labels when SHIPPO_API_KEY is set; the local rate table and PDF labels otherwise. */
export function shippingFor(ctx: AppContext): ShippingProvider {
  const { apiKey, from, originCountry } = ctx.config.shippo;
  return apiKey ? shippoShipping(apiKey, { from, originCountry }) : localShipping(ctx);
}

/** One parcel for the whole order: weights add up, the box is the largest item's. */
export function parcelFor(lines: { quantity: number; weight: number; length: number; width: number; height: number }[]): Parcel {
  return {
    weightLbs: Math.max(
      0.1,
      lines.reduce((sum, l) => sum + l.weight * l.quantity, 0),
    ),
    lengthIn: Math.max(1, ...lines.map((l) => l.length)),
    widthIn: Math.max(1, ...lines.map((l) => l.width)),
    heightIn: Math.max(1, ...lines.map((l) => l.height)),
  };
}

import type { Tracking } from "#server/contracts/order-page";

/**
 * The carriers' tracking pages, one table (issue 25). A label's carrier is written as the rate
 * named it ("USPS", Shippo's "FedEx" or "DHL Express"); any other carrier shows the number alone.
 */
const CARRIERS: { match: RegExp; name: string; url: (number: string) => string }[] = [
  { match: /^usps$/, name: "USPS", url: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}` },
  { match: /^ups$/, name: "UPS", url: (n) => `https://www.ups.com/track?tracknum=${n}` },
  { match: /^fedex$/, name: "FedEx", url: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}` },
  { match: /^dhl(express|ecommerce)?$/, name: "DHL", url: (n) => `https://www.dhl.com/global-en/home/tracking.html?tracking-id=${n}` },
];

export function trackingFor(carrier: string, trackingNumber: string): Tracking | null {
  const number = trackingNumber.trim();
  if (!number) return null;
  const key = carrier.toLowerCase().replace(/[^a-z]/g, "");
  const known = CARRIERS.find((c) => c.match.test(key));
  return known
    ? { carrier: known.name, number, url: known.url(encodeURIComponent(number)) }
    : { carrier: carrier.trim() || "Carrier", number, url: null };
}

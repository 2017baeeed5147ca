import type { ShippingRate } from "#server/contracts/shipping-rate";
import { US_STATE_TAX_RULES_2025 } from "#server/integrations/tax/us-state-rules";
import { methodKeyOf } from "./types";

/*
 * The local shipping implementation: a rate table by zone and weight band, shaped like the
 * carriers' own services so the checkout behaves exactly as with Shippo. Prices are cents.
 */

export interface Destination {
  country: string;
  state?: string | null;
  zipCode: string;
}

type Zone = "us" | "us-remote" | "north-america" | "europe" | "world";

const US_REMOTE = new Set(["AK", "HI"]);
const NORTH_AMERICA = new Set(["CA", "MX"]);
const EUROPE = new Set([
  "GB",
  "IE",
  "DE",
  "FR",
  "IT",
  "ES",
  "PT",
  "NL",
  "BE",
  "LU",
  "AT",
  "CH",
  "DK",
  "SE",
  "NO",
  "FI",
  "PL",
  "CZ",
  "GR",
  "HU",
  "RO",
]);
const WORLD = new Set([
  "AU",
  "NZ",
  "JP",
  "KR",
  "SG",
  "HK",
  "TW",
  "IN",
  "CN",
  "BR",
  "AR",
  "CL",
  "CO",
  "PE",
  "ZA",
  "AE",
  "IL",
  "SA",
  "TR",
  "PH",
  "TH",
  "MY",
]);

/** Countries the store ships to; the checkout offers these. */
export const SHIPPING_COUNTRIES = ["US", ...NORTH_AMERICA, ...EUROPE, ...WORLD];

const POSTAL: Record<string, RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  MX: /^\d{5}$/,
  AU: /^\d{4}$/,
  JP: /^\d{3}-?\d{4}$/,
};

function zoneOf(destination: Destination): Zone | null {
  const country = destination.country.trim().toUpperCase();
  const zip = destination.zipCode.trim();
  if (!zip || (POSTAL[country] && !POSTAL[country].test(zip))) return null;
  if (country === "US") {
    const state = (destination.state ?? "").trim().toUpperCase();
    if (!US_STATE_TAX_RULES_2025[state]) return null;
    return US_REMOTE.has(state) ? "us-remote" : "us";
  }
  if (NORTH_AMERICA.has(country)) return "north-america";
  if (EUROPE.has(country)) return "europe";
  if (WORLD.has(country)) return "world";
  return null;
}

// [base cents for the first pound, cents per extra pound], per zone.
const TABLE: Record<
  Zone,
  { carrier: string; method: string; description: string; days: number; base: number; perLb: number; maxLbs?: number }[]
> = {
  us: [
    { carrier: "USPS", method: "ground_saver", description: "USPS Ground Advantage", days: 5, base: 595, perLb: 75 },
    { carrier: "USPS", method: "priority", description: "USPS Priority Mail", days: 3, base: 995, perLb: 125 },
    { carrier: "UPS", method: "ground", description: "UPS Ground", days: 4, base: 1150, perLb: 110 },
    { carrier: "USPS", method: "priority_express", description: "USPS Priority Mail Express", days: 1, base: 2950, perLb: 250 },
  ],
  "us-remote": [
    { carrier: "USPS", method: "ground_saver", description: "USPS Ground Advantage", days: 8, base: 995, perLb: 150 },
    { carrier: "USPS", method: "priority", description: "USPS Priority Mail", days: 4, base: 1495, perLb: 200 },
  ],
  "north-america": [
    {
      carrier: "USPS",
      method: "first_class_international",
      description: "USPS First-Class Package International",
      days: 12,
      base: 1695,
      perLb: 300,
      maxLbs: 4,
    },
    { carrier: "USPS", method: "priority_international", description: "USPS Priority Mail International", days: 8, base: 3295, perLb: 400 },
    { carrier: "DHL", method: "express_worldwide", description: "DHL Express Worldwide", days: 3, base: 4995, perLb: 600 },
  ],
  europe: [
    {
      carrier: "USPS",
      method: "first_class_international",
      description: "USPS First-Class Package International",
      days: 14,
      base: 1995,
      perLb: 350,
      maxLbs: 4,
    },
    { carrier: "USPS", method: "priority_international", description: "USPS Priority Mail International", days: 9, base: 4295, perLb: 500 },
    { carrier: "DHL", method: "express_worldwide", description: "DHL Express Worldwide", days: 4, base: 5995, perLb: 700 },
  ],
  world: [
    {
      carrier: "USPS",
      method: "first_class_international",
      description: "USPS First-Class Package International",
      days: 18,
      base: 2295,
      perLb: 400,
      maxLbs: 4,
    },
    {
      carrier: "USPS",
      method: "priority_international",
      description: "USPS Priority Mail International",
      days: 11,
      base: 4795,
      perLb: 550,
    },
    { carrier: "DHL", method: "express_worldwide", description: "DHL Express Worldwide", days: 5, base: 6995, perLb: 800 },
  ],
};

/** Rates for a parcel, cheapest first. No rates means the address cannot be shipped to. */
export function localRates(destination: Destination, weightLbs: number): ShippingRate[] {
  const zone = zoneOf(destination);
  if (!zone || !(weightLbs > 0) || weightLbs > 70) return [];
  const pounds = Math.ceil(weightLbs);
  return TABLE[zone]
    .filter((row) => !row.maxLbs || weightLbs <= row.maxLbs)
    .map((row) => ({
      key: methodKeyOf(row),
      carrier: row.carrier,
      method: row.method,
      costCents: row.base + (pounds - 1) * row.perLb,
      description: row.description,
      estimatedDays: row.days,
    }))
    .sort((a, b) => a.costCents - b.costCents);
}

/**
 * A method key ("usps-priority_express") in the words the checkout showed for it ("USPS Priority
 * Mail Express"): this table's description, or, for a carrier's own service (Shippo), the key
 * spelled out. Orders keep only the key.
 */
export function methodDescriptionOf(key: string): string {
  for (const rows of Object.values(TABLE)) {
    const row = rows.find((r) => methodKeyOf(r) === key);
    if (row) return row.description;
  }
  const [carrier = "", ...rest] = key.split("-");
  const method = rest
    .join(" ")
    .replace(new RegExp(`^${carrier}_`), "")
    .replace(/_/g, " ")
    .replace(/\b[a-z]/g, (c) => c.toUpperCase());
  return `${carrier.toUpperCase()} ${method}`.trim();
}

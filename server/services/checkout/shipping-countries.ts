import type { Country } from "#server/contracts/checkout-page";
import { SHIPPING_COUNTRIES } from "#server/integrations/shipping/local-rates";

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** The shipping table's countries with English names: the US first (the default), then A to Z. */
export const SHIPPING_DESTINATIONS: Country[] = [
  { code: "US", name: "United States" },
  ...SHIPPING_COUNTRIES.filter((code) => code !== "US")
    .map((code) => ({ code, name: regionNames.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, "en")),
];

/** A country by its code; one the store no longer ships to keeps its code as its name. */
export const countryOf = (code: string): Country => SHIPPING_DESTINATIONS.find((c) => c.code === code) ?? { code, name: code };

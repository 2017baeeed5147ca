/*
 * The catalogue's messages and swatches without zod, for the store pages' browser code (decision
 * 0029). catalog.ts re-exports them.
 */
export const CATALOG_MESSAGES = {
  notFound: "Product not found.",
  loadFailed: "Sorry, we couldn't load the products. Please try again later.",
} as const;

/** docs/spec.md §3 preset swatches. Any other colour name is drawn in NEUTRAL_SWATCH. */
export const COLOR_SWATCHES: Readonly<Record<string, string>> = {
  Black: "#1a1a1a",
  White: "#f4f4f2",
  Gray: "#8a8a8a",
  Navy: "#1f2a44",
  Brown: "#6b4a32",
  Beige: "#d9c7a7",
  Red: "#b3261e",
  Blue: "#2f5fa7",
  Green: "#3f5f3a",
};
export const NEUTRAL_SWATCH = "#9e9e9e";

export function swatchFor(color: string): string {
  // Object.hasOwn: a colour called "constructor" must not find Object.prototype's.
  return Object.hasOwn(COLOR_SWATCHES, color) ? COLOR_SWATCHES[color]! : NEUTRAL_SWATCH;
}

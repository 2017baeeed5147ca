import { formatUsd } from "#server/contracts/money";

/** How a chart prints its values: whole counts, or dollars. */
export type ChartFormat = "count" | "usd";

const counts = new Intl.NumberFormat("en-US");

export function formatValue(value: number, format: ChartFormat): string {
  return format === "usd" ? formatUsd(value) : counts.format(value);
}

// By hand: Intl's compact notation prints "$2.0K" in Node and "$2K" in Chromium, and the server's
// render must match the browser's to the character.
function compact(value: number, unit: number, suffix: string): string {
  const scaled = value / unit;
  return `${Number.isInteger(scaled) ? scaled : scaled.toFixed(1)}${suffix}`;
}

/** For the value axis, where room is short: "$1.2K", "$3M", "1.5K". */
export function formatTick(value: number, format: ChartFormat): string {
  const prefix = format === "usd" ? "$" : "";
  if (value >= 1_000_000) return prefix + compact(value, 1_000_000, "M");
  if (value >= 10_000 || (format === "usd" && value >= 1000)) return prefix + compact(value, 1000, "K");
  return format === "usd" ? formatUsd(value).replace(/\.00$/, "") : counts.format(value);
}

import { formatUsd } from "../../../server/contracts/money";

/** How a chart prints its values: whole counts, or dollars. */
export type ChartFormat = "count" | "usd";

const counts = new Intl.NumberFormat("en-US");
const compactUsd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumFractionDigits: 1 });

export function formatValue(value: number, format: ChartFormat): string {
  return format === "usd" ? formatUsd(value) : counts.format(value);
}

/** For the value axis, where room is short: "$1.2K". */
export function formatTick(value: number, format: ChartFormat): string {
  return format === "usd" ? (value >= 1000 ? compactUsd.format(value) : formatUsd(value).replace(/\.00$/, "")) : counts.format(value);
}

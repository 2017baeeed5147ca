import { formatUsd } from "#server/contracts/money";
import { formatLaunchTimeOrNone as formatDropTime } from "#server/contracts/store-time";

export { formatDropTime, formatUsd };

/** Seconds as "1m 30s", "2h 5m", "45s"; "—" when there is nothing to say. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return "—";
  const s = Math.abs(Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const text = h > 0 ? `${h}h ${m}m` : m > 0 ? `${m}m ${rest}s` : `${rest}s`;
  return seconds < 0 ? `${text} before T-0` : text;
}

export const counts = new Intl.NumberFormat("en-US");

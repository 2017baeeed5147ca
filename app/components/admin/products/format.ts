import { formatInTimeZone } from "date-fns-tz";
import { STORE_TIME_ZONE } from "../../../../server/contracts/store-time";

// Eastern Time on the server and in the browser alike, so the first render matches after hydration.
export function formatDay(iso: string): string {
  return formatInTimeZone(iso, STORE_TIME_ZONE, "MMM d, yyyy");
}

export function formatEastern(iso: string): string {
  return `${formatInTimeZone(iso, STORE_TIME_ZONE, "MMM d, yyyy h:mm a")} ET`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

import { formatInTimeZone, fromZonedTime } from "date-fns-tz";

import { STORE_TIME_ZONE } from "./store-zone";

export { STORE_TIME_ZONE };

export const SKIPPED_TIME_MESSAGE =
  "That time does not exist in New York on this date (clocks jump from 2:00 to 3:00 AM). Please choose another time.";

/** "2026-02-30" is no day, though Date would quietly read it as March 2. */
export function isCalendarDay(date: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return false;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).toISOString().slice(0, 10) === date;
}

/**
 * A date ("2026-07-04") and a 24-hour time ("20:30") on the store's wall clock → the UTC instant,
 * with that day's own offset (EST or EDT). The two daylight-saving Sundays:
 * - spring forward (second Sunday of March): 2:00-2:59 AM never happens, so null, and the caller
 *   refuses it; fromZonedTime alone would quietly answer an hour earlier (2:30 → 1:30 AM EST);
 * - fall back (first Sunday of November): 1:00-1:59 AM happens twice; the first one is chosen
 *   (EDT, UTC−4), so 1:30 AM is 05:30 UTC, not 06:30 UTC.
 * Null too for a day or time that does not exist at all.
 */
export function storeWallClockToUtc(date: string, time: string): Date | null {
  const wallClock = `${date}T${time}`;
  if (!isCalendarDay(date) || !/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) return null;
  const readBack = (instant: Date) => formatInTimeZone(instant, STORE_TIME_ZONE, "yyyy-MM-dd'T'HH:mm") === wallClock;
  const instant = fromZonedTime(`${wallClock}:00`, STORE_TIME_ZONE);
  // Read back, a skipped time comes out as another hour.
  if (!readBack(instant)) return null;
  // Which of a repeated hour's two instants fromZonedTime gives depends on the zone of the machine
  // it runs on (the second one in Tokyo), so the first is picked here, on the server and in the browser.
  const hourEarlier = new Date(instant.getTime() - 60 * 60 * 1000);
  return readBack(hourEarlier) ? hourEarlier : instant;
}

/** An instant → the store's wall-clock date and HH:MM, as the admin forms show it. */
export function utcToStoreWallClock(instant: string | Date): { date: string; time: string } {
  return { date: formatInTimeZone(instant, STORE_TIME_ZONE, "yyyy-MM-dd"), time: formatInTimeZone(instant, STORE_TIME_ZONE, "HH:mm") };
}

/**
 * An instant shown on the store's wall clock ("—" for none; unreadable text as it is), so a
 * server render and the browser agree to the minute and nothing shifts on hydration.
 */
export function formatStoreTime(instant: string | number | null | undefined, pattern: string): string {
  if (instant === null || instant === undefined || instant === "") return "—";
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? String(instant) : formatInTimeZone(date, STORE_TIME_ZONE, pattern);
}

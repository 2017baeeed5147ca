import { formatInTimeZone, fromZonedTime } from "date-fns-tz";

import { formatLaunchTime, formatLaunchTimeOrNone, STORE_TIME_ZONE } from "./store-zone";

export { formatLaunchTime, formatLaunchTimeOrNone, STORE_TIME_ZONE };

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
export function formatStoreTime(instant: string | number | Date | null | undefined, pattern: string): string {
  if (instant === null || instant === undefined || instant === "") return "—";
  const date = new Date(instant);
  return Number.isNaN(date.getTime()) ? String(instant) : formatInTimeZone(date, STORE_TIME_ZONE, pattern);
}

type Instant = string | number | Date;

/*
 * A launch, release or drop time is written one way everywhere (issue 28): formatLaunchTime,
 * "Saturday, July 4, 2026 at 8:30 PM EDT" (store-zone.ts, where the countdown reads it without
 * date-fns-tz). The countdown, the sign-in page, the admin's countdown setting, the drop panel,
 * list and report, a product's release, the launch e-mail and an early-access link all use it; they
 * used to say "8:30 PM ET", "20:30 EDT", "8:30:00 PM New York time" and "8:30 PM EDT" by turns.
 */

/** "July 4, 2026": a day in words (the terms' "Last updated", the first drop on About). */
export const formatStoreDate = (instant: Instant) => formatStoreTime(instant, "MMMM d, yyyy");

/** "Jul 4, 2026": a day in an admin table. */
export const formatStoreDay = (instant: Instant) => formatStoreTime(instant, "MMM d, yyyy");

/** "Jul 5, 00:30 UTC": the countdown form's check of what a New York time is in UTC. */
export const formatUtcTime = (instant: Instant) => formatInTimeZone(instant, "UTC", "MMM d, HH:mm 'UTC'");

/*
 * The store's calendar: a day is "yyyy-MM-dd" as its own wall clock has it, so "today" turns at
 * midnight in New York, not at midnight UTC (7 or 8 PM the day before there) or on the server's clock.
 */

/** The store day ("2026-11-25") an instant falls on. */
export function storeDayOf(instant: Instant, timeZone: string = STORE_TIME_ZONE): string {
  return formatInTimeZone(instant, timeZone, "yyyy-MM-dd");
}

/** Today on the store's calendar: the first day a countdown may be set to, the dashboard's "today". */
export function storeToday(now: Date, timeZone: string = STORE_TIME_ZONE): string {
  return storeDayOf(now, timeZone);
}

/** The instant a store day begins: its midnight in New York, EST or EDT (no DST change skips midnight there). */
export function storeDayStart(day: string): Date {
  return fromZonedTime(`${day}T00:00:00`, STORE_TIME_ZONE);
}

/** The calendar day `n` days after `day` (before, for negative n), by date alone so a DST change cannot shift it. */
export function addStoreDays(day: string, n: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

import { STORE_TIME_ZONE } from "../../../server/contracts/store-zone";

export interface Remaining {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Splits a duration into whole units. Anything at or past the target (or not a number) is zero. */
export function splitRemaining(ms: number): Remaining {
  // Whole seconds, rounded down: the display reaches 00 exactly when the target is reached.
  const total = Number.isFinite(ms) && ms > 0 ? Math.floor(ms / SECOND) * SECOND : 0;
  return {
    days: Math.floor(total / DAY),
    hours: Math.floor((total % DAY) / HOUR),
    minutes: Math.floor((total % HOUR) / MINUTE),
    seconds: Math.floor((total % MINUTE) / SECOND),
  };
}

/** Two digits at least ("07"); a countdown more than 99 days out keeps all its digits. */
export function pad2(value: number): string {
  return String(Math.max(0, Math.trunc(value))).padStart(2, "0");
}

/** Milliseconds from `now` to `target` (ISO strings or dates); NaN when the target is unreadable. */
export function remainingMs(target: string | Date, now: string | Date | number): number {
  return new Date(target).getTime() - new Date(now).getTime();
}

const LAUNCH_FORMAT = new Intl.DateTimeFormat("en-US", {
  weekday: "long",
  month: "long",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: STORE_TIME_ZONE,
  timeZoneName: "short",
});

/**
 * "Saturday, July 4, 2025 at 12:00 AM EDT": in the store's zone, whatever the visitor's. Built from
 * Intl's parts rather than date-fns-tz (8 kB on the landing page, decision 0029), and assembled
 * here so the server and every browser print the same separators.
 */
export function formatLaunchEastern(target: string | Date): string {
  const date = new Date(target);
  if (Number.isNaN(date.getTime())) return "";
  const part = Object.fromEntries(LAUNCH_FORMAT.formatToParts(date).map(({ type, value }) => [type, value]));
  return `${part.weekday}, ${part.month} ${part.day}, ${part.year} at ${part.hour}:${part.minute} ${part.dayPeriod} ${part.timeZoneName}`;
}

/** The spec's default target when no date is stored: 4 July 2025, midnight Eastern. */
export const DEFAULT_LAUNCH = "2025-07-04T04:00:00.000Z";

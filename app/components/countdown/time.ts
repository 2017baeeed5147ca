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

/** The spec's default target when no date is stored: 4 July 2025, midnight Eastern. */
export const DEFAULT_LAUNCH = "2025-07-04T04:00:00.000Z";

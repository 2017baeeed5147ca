import { format } from "date-fns";

/**
 * A calendar day as the form posts it (`YYYY-MM-DD`, a New York wall-clock day) and as the date
 * picker shows it (a `Date` at local midnight of that day). The two meet through the year, month
 * and day numbers only: `new Date("YYYY-MM-DD")` would be UTC midnight, which is the day before
 * anywhere west of Greenwich.
 */
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local-midnight `Date` of a `YYYY-MM-DD` day; undefined for anything else or a day that does not exist. */
export function dateFromYmd(ymd: string | undefined | null): Date | undefined {
  const match = ymd ? YMD.exec(ymd) : null;
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  // Years 0-99 are taken as 1900-1999 by the constructor; setFullYear does not.
  date.setFullYear(year);
  // 2026-02-30 would roll over to March 2nd: not a day of the calendar.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return undefined;
  return date;
}

/** The `YYYY-MM-DD` of the local day a `Date` falls on. */
export function ymdFromDate(date: Date): string {
  const year = String(date.getFullYear()).padStart(4, "0");
  const month = String(date.getMonth() + 1).padStart(2, "0");
  const day = String(date.getDate()).padStart(2, "0");
  return `${year}-${month}-${day}`;
}

/** "Sat, Jul 4, 2026" for the picker's button; null when the value is not a day. */
export function formatYmdShort(ymd: string | undefined | null): string | null {
  const date = dateFromYmd(ymd);
  return date ? format(date, "EEE, MMM d, yyyy") : null;
}

/**
 * The store's own time zone. Launch and release times are entered as its wall-clock time, and
 * dates are shown in it, so the admin, the e-mails and every visitor read the same hour.
 * Its own file, without date-fns-tz, so the countdown can name it without loading that (decision 0029).
 */
export const STORE_TIME_ZONE = "America/New_York";

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
 * "Saturday, July 4, 2026 at 8:30 PM EDT": the countdown's launch line, in the store's zone whatever
 * the visitor's. Here and built from Intl's parts rather than with date-fns-tz, which would add 8 kB
 * to the landing page (decision 0029); assembled by hand so the server and every browser print the
 * same separators. Store-time.ts names it with the other formats.
 */
export function formatLaunchTime(target: string | Date): string {
  const date = new Date(target);
  if (Number.isNaN(date.getTime())) return "";
  const part = Object.fromEntries(LAUNCH_FORMAT.formatToParts(date).map(({ type, value }) => [type, value]));
  return `${part.weekday}, ${part.month} ${part.day}, ${part.year} at ${part.hour}:${part.minute} ${part.dayPeriod} ${part.timeZoneName}`;
}

/** The launch format, or "—" for none (a drop not scheduled). Here, not in store-time.ts, so a product page's draw panel does not load date-fns-tz. */
export const formatLaunchTimeOrNone = (instant: string | number | Date | null | undefined) =>
  instant === null || instant === undefined || instant === "" ? "—" : formatLaunchTime(new Date(instant)) || String(instant);

import { MAX_REPORT_DAYS, REPORT_MESSAGES, type RangePreset } from "#server/contracts/reports";
import { addStoreDays, isCalendarDay, storeDayStart } from "#server/contracts/store-time";
import { Invalid } from "#server/errors";

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A report's span: store days `from`..`to` inclusive, as the instants [start, end). */
export interface ReportRange {
  from: string;
  to: string;
  start: Date;
  end: Date;
  /** Hours for a one-day range, else store days. */
  bucket: "hour" | "day";
}

export function rangeOf(from: string, to: string): ReportRange {
  return {
    from,
    to,
    start: storeDayStart(from),
    end: storeDayStart(addStoreDays(to, 1)),
    bucket: from === to ? "hour" : "day",
  };
}

/** The same number of days just before. */
export function previousRange(range: ReportRange): ReportRange {
  const days = daysBetween(range.from, range.to) + 1;
  return rangeOf(addStoreDays(range.from, -days), addStoreDays(range.to, -days));
}

/**
 * `from` and `to` as a caller sent them (YYYY-MM-DD, store days, both included) → the range, or
 * Invalid with a message naming the field. Missing both: the last 30 days, today included.
 */
export function parseRange(input: { from?: string | null; to?: string | null }, today: string): ReportRange {
  const from = input.from?.trim() || null;
  const to = input.to?.trim() || null;
  for (const [field, value] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (value !== null && !isCalendarDay(value))
      throw new Invalid(REPORT_MESSAGES.dateFormat(field), { [field]: [REPORT_MESSAGES.dateFormat(field)] });
  }
  const end = to ?? (from && from > today ? from : today);
  const start = from ?? addStoreDays(end, -29);
  if (start > end) throw new Invalid(REPORT_MESSAGES.order, { from: [REPORT_MESSAGES.order] });
  if (daysBetween(start, end) + 1 > MAX_REPORT_DAYS) {
    throw new Invalid(REPORT_MESSAGES.tooLong(MAX_REPORT_DAYS), { from: [REPORT_MESSAGES.tooLong(MAX_REPORT_DAYS)] });
  }
  return rangeOf(start, end);
}

/** The dashboard's choices: today, the last 7 or 30 days (today included), or from/to. */
export function presetRange(preset: RangePreset, today: string, custom: { from?: string | null; to?: string | null }): ReportRange {
  if (preset === "today") return rangeOf(today, today);
  if (preset === "7d") return rangeOf(addStoreDays(today, -6), today);
  if (preset === "30d") return rangeOf(addStoreDays(today, -29), today);
  return parseRange(custom, today);
}

/** The starts of the range's buckets, ISO UTC (hours of a store day follow its real length: 23 or 25 on DST days). */
export function bucketStarts(range: ReportRange): string[] {
  const starts: string[] = [];
  if (range.bucket === "hour") {
    for (let t = range.start.getTime(); t < range.end.getTime(); t += 3_600_000) starts.push(new Date(t).toISOString());
  } else {
    for (let day = range.from; day <= range.to; day = addStoreDays(day, 1)) starts.push(storeDayStart(day).toISOString());
  }
  return starts;
}

/** The bucket an instant falls in (its start), given the sorted starts. */
export function bucketOf(starts: string[], instant: string): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= instant) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

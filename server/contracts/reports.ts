/** The dashboard's and the reports REST's shapes (issue 14). Money is in dollars, as everywhere in the API. */

export interface Funnel {
  /** Sessions seen (once per store day) plus cookieless visits (decision 0025). */
  visitors: number;
  /** Sessions that added to the bag. */
  bagged: number;
  /** Sessions that reached checkout with something in the bag. */
  checkout: number;
  /** Orders placed (paid or not). */
  ordered: number;
  /** Of those, the ones paid. */
  paid: number;
}

export interface SeriesPoint {
  /** The bucket's start, ISO UTC: an hour (one-day ranges) or a store day. */
  t: string;
  orders: number;
  revenue: number;
}

export interface Summary {
  /** Paid orders placed in the range. */
  orders: number;
  /** Their totals, in dollars (before refunds). */
  revenue: number;
  /** Money refunded in the range, in dollars. */
  refunds: number;
  /** revenue / orders, in dollars (0 without orders). */
  averageOrder: number;
  funnel: Funnel;
  series: SeriesPoint[];
}

export interface SubscriberPoint {
  /** The store day's start, ISO UTC. */
  t: string;
  joined: number;
  left: number;
  /** Subscribed at the end of that day. */
  total: number;
}

export interface SubscriberSeries {
  series: SubscriberPoint[];
}

export const RANGE_PRESETS = ["today", "7d", "30d", "custom"] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

export const REPORT_MESSAGES = {
  dateFormat: (field: "from" | "to") => `"${field}" must be a date as YYYY-MM-DD, such as 2026-11-25.`,
  order: '"from" must be on or before "to".',
  tooLong: (days: number) => `A report covers at most ${days} days. Choose a shorter range.`,
} as const;

/** The longest range a report covers. */
export const MAX_REPORT_DAYS = 400;

export interface TopProduct {
  productId: number | null;
  name: string;
  units: number;
  /** Dollars, paid orders placed in the range. */
  revenue: number;
}

/** What /admin shows (the loader and tRPC `admin.reports.dashboard`). */
export interface DashboardView {
  range: { preset: RangePreset; from: string; to: string; bucket: "hour" | "day" };
  previous: { from: string; to: string };
  includeTest: boolean;
  /** A custom range that could not be read: the message, and the range shown instead. */
  error: string | null;
  today: string;
  summary: Summary;
  previousSummary: Summary;
  refundCount: number;
  subscribers: SubscriberPoint[];
  topProducts: TopProduct[];
  /** When the visitor figures were last rolled up (ISO), or null before the first roll-up. */
  eventsAsOf: string | null;
  /** Events the store did not count in the range: past a process's ceiling a minute, or refused (decision 0040). */
  eventsDropped: number;
}

export interface DashboardQuery {
  range?: string | null;
  from?: string | null;
  to?: string | null;
  includeTest?: boolean;
}

/** `includeTest` as a query parameter: 1/true or 0/false (absent: false). */
export function parseIncludeTest(value: string | null | undefined): boolean | null {
  if (value === null || value === undefined || value === "") return false;
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  return null;
}

export const INCLUDE_TEST_MESSAGE = '"includeTest" must be 1 or 0.';

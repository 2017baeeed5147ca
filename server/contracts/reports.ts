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

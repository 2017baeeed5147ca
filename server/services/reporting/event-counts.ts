import { sql } from "kysely";
import type { AppContext } from "#server/context";

/**
 * How one store day's events count in `event_hours` (decision 0025): per hour, how many of each
 * event, and how many sessions did something for the first time that day.
 *
 * Metrics: "views" and "views:<page kind>", "bag_adds", "checkout_views", "orders", "payments";
 * "visitors" (sessions first seen that store day in that hour, plus cookieless entries), "entries"
 * (the cookieless entries alone), "bagged" and "checkout_sessions" (sessions that first added to
 * the bag, first reached checkout, that day in that hour). Summed over a range, a session counts
 * once per store day it came back on.
 *
 * A day is counted whole (countWholeDay), or a run's new events are counted on top of what the
 * hours already hold (countNewEvents, decision 0034), given when each of their sessions first did
 * what as counted so far (`event_sessions`).
 */
export type Counts = Map<string, number>;

/** When a session first visited, added to the bag, reached checkout that day (ISO instants). */
export interface Firsts {
  seenAt: string | null;
  baggedAt: string | null;
  checkoutAt: string | null;
}

export interface DayCounts {
  counts: Counts;
  /** Sessions whose firsts these counts change (all of them, counted whole). */
  sessions: Map<string, Firsts>;
}

export interface IdRange {
  afterId: number;
  upToId: number;
}

const hourOf = (instant: string) => `${instant.slice(0, 13)}:00:00.000Z`;

function add(counts: Counts, hour: string, metric: string, n: number) {
  const key = `${hour}|${metric}`;
  counts.set(key, (counts.get(key) ?? 0) + n);
}

const METRIC: Record<string, string> = {
  bag_add: "bag_adds",
  checkout_view: "checkout_views",
  order: "orders",
  payment: "payments",
  dropped: "events_dropped",
};

/**
 * The events counted one by one: views, entries, bag adds, checkout views, orders, payments, and
 * those a process dropped (decision 0040); a row counts as many as its `count`.
 */
async function countEvents(ctx: AppContext, start: string, end: string, { afterId, upToId }: IdRange): Promise<Counts> {
  // Only ids up to upToId, even counted whole: the next run adds what came after, once. Without
  // a lower bound the planner reads the day by its time index, with one by the id range.
  const inIds = afterId > 0 ? sql`AND id > ${afterId} AND id <= ${upToId}` : sql`AND id <= ${upToId}`;
  const counts: Counts = new Map();
  const { rows } = await sql<{ h: string; kind: string; pageKind: string | null; isEntry: number; keyed: number; n: number }>`
    SELECT substr(occurred_at, 1, 13) AS h, kind, page_kind, is_entry,
      CASE WHEN session_key IS NULL THEN 0 ELSE 1 END AS keyed, sum(count) AS n
    FROM events WHERE occurred_at >= ${start} AND occurred_at < ${end} ${inIds}
    GROUP BY substr(occurred_at, 1, 13), kind, page_kind, is_entry, CASE WHEN session_key IS NULL THEN 0 ELSE 1 END`.execute(ctx.db);
  for (const row of rows) {
    const hour = hourOf(row.h);
    const n = Number(row.n);
    if (row.kind === "view") {
      add(counts, hour, "views", n);
      add(counts, hour, `views:${row.pageKind ?? "other"}`, n);
      if (Number(row.isEntry) === 1 && Number(row.keyed) === 0) {
        add(counts, hour, "entries", n);
        add(counts, hour, "visitors", n);
      }
    } else if (METRIC[row.kind]) add(counts, hour, METRIC[row.kind]!, n);
  }
  return counts;
}

/** The day's events up to upToId, from scratch. */
export async function countWholeDay(ctx: AppContext, start: string, end: string, upToId: number): Promise<DayCounts> {
  const counts = await countEvents(ctx, start, end, { afterId: 0, upToId });
  const { rows } = await sql<{ kind: string; sessionKey: string; first: string }>`
    SELECT kind, session_key, min(occurred_at) AS first
    FROM events WHERE occurred_at >= ${start} AND occurred_at < ${end} AND id <= ${upToId}
      AND session_key IS NOT NULL AND kind IN ('view', 'bag_add', 'checkout_view')
    GROUP BY kind, session_key`.execute(ctx.db);
  const sessions = new Map<string, Firsts>();
  for (const row of rows) {
    let firsts = sessions.get(row.sessionKey);
    if (!firsts) sessions.set(row.sessionKey, (firsts = { seenAt: null, baggedAt: null, checkoutAt: null }));
    firsts.seenAt = earlier(firsts.seenAt, row.first);
    if (row.kind === "bag_add") firsts.baggedAt = row.first;
    if (row.kind === "checkout_view") firsts.checkoutAt = row.first;
  }
  for (const firsts of sessions.values()) {
    add(counts, hourOf(firsts.seenAt!), "visitors", 1);
    if (firsts.baggedAt) add(counts, hourOf(firsts.baggedAt), "bagged", 1);
    if (firsts.checkoutAt) add(counts, hourOf(firsts.checkoutAt), "checkout_sessions", 1);
  }
  return { counts, sessions };
}

/**
 * The events with ids in (afterId, upToId], on top of those the hours hold: each of their sessions
 * is looked up in `event_sessions` (the few thousand of a run, not the day's million events). A
 * day without its sessions there (compacted) counts each as new that day.
 */
export async function countNewEvents(ctx: AppContext, day: string, start: string, end: string, ids: IdRange): Promise<DayCounts> {
  const counts = await countEvents(ctx, start, end, ids);
  const { rows } = await sql<{ sessionKey: string; seen: string; bagged: string | null; checkout: string | null } & Firsts>`
    SELECT f.session_key, f.seen, f.bagged, f.checkout, s.seen_at, s.bagged_at, s.checkout_at
    FROM (
      SELECT session_key, min(occurred_at) AS seen,
        min(CASE WHEN kind = 'bag_add' THEN occurred_at END) AS bagged,
        min(CASE WHEN kind = 'checkout_view' THEN occurred_at END) AS checkout
      FROM events WHERE id > ${ids.afterId} AND id <= ${ids.upToId} AND occurred_at >= ${start} AND occurred_at < ${end}
        AND session_key IS NOT NULL AND kind IN ('view', 'bag_add', 'checkout_view')
      GROUP BY session_key) f
    LEFT JOIN event_sessions s ON s.day = ${day} AND s.session_key = f.session_key`.execute(ctx.db);
  const sessions = new Map<string, Firsts>();
  for (const row of rows) {
    const firsts = {
      seenAt: firstOfDay(counts, "visitors", row.seen, row.seenAt),
      baggedAt: firstOfDay(counts, "bagged", row.bagged, row.baggedAt),
      checkoutAt: firstOfDay(counts, "checkout_sessions", row.checkout, row.checkoutAt),
    };
    if (firsts.seenAt !== row.seenAt || firsts.baggedAt !== row.baggedAt || firsts.checkoutAt !== row.checkoutAt)
      sessions.set(row.sessionKey, firsts);
  }
  return { counts, sessions };
}

/**
 * A session counts once, in the hour it first did it that day. Already counted: nothing changes,
 * unless a late event shows it did so earlier, in another hour; its count moves there. Returns
 * the first time now known.
 */
function firstOfDay(counts: Counts, metric: string, fresh: string | null, known: string | null): string | null {
  if (fresh === null) return known;
  if (known === null) {
    add(counts, hourOf(fresh), metric, 1);
    return fresh;
  }
  if (fresh >= known) return known;
  if (hourOf(fresh) !== hourOf(known)) {
    add(counts, hourOf(known), metric, -1);
    add(counts, hourOf(fresh), metric, 1);
  }
  return fresh;
}

const earlier = (a: string | null, b: string) => (a === null || b < a ? b : a);

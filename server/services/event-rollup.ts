import { sql } from "kysely";
import type { AppContext } from "../context";
import { storeDayOf, storeDayStart, nextStoreDay } from "./report-range";

/**
 * The roll-ups behind the funnel and the charts (decision 0025): per hour, how many of each event
 * and how many sessions did something for the first time that store day. Run by the sweeper's
 * leader; each run recounts the store days that received events since the last run, from the raw
 * events (so a late batch is counted, never twice), then deletes raw events older than
 * KEEP_RAW_DAYS, which the roll-ups already hold.
 *
 * Metrics: "views" and "views:<page kind>", "bag_adds", "checkout_views", "orders", "payments";
 * "visitors" (sessions first seen that store day in that hour, plus cookieless entries), "entries"
 * (the cookieless entries alone), "bagged" and "checkout_sessions" (sessions that first added to
 * the bag, first reached checkout, that day in that hour). Summed over a range, a session counts
 * once per store day it came back on.
 */
export const KEEP_RAW_DAYS = 30;
const DELETE_BATCH = 20_000;

type Counts = Map<string, number>;

// The metrics this roll-up owns: the same hours hold the orders' (order-rollup.ts), kept on a recount.
const EVENT_METRICS = ["views", "entries", "visitors", "bag_adds", "checkout_views", "orders", "payments", "bagged", "checkout_sessions"];

const hourOf = (instantPrefix: string) => `${instantPrefix.slice(0, 13)}:00:00.000Z`;

function add(counts: Counts, hour: string, metric: string, n: number) {
  const key = `${hour}|${metric}`;
  counts.set(key, (counts.get(key) ?? 0) + n);
}

/** Counts one store day's events (only ids in (afterId, upToId] when given) per hour and metric. */
async function countDay(ctx: AppContext, start: string, end: string, ids: { afterId: number; upToId: number } | null): Promise<Counts> {
  const inIds = ids ? sql`AND id > ${ids.afterId} AND id <= ${ids.upToId}` : sql``;
  const counts: Counts = new Map();
  const perKind = await sql<{ h: string; kind: string; pageKind: string | null; isEntry: number; keyed: number; n: number }>`
    SELECT substr(occurred_at, 1, 13) AS h, kind, page_kind, is_entry,
      CASE WHEN session_key IS NULL THEN 0 ELSE 1 END AS keyed, count(*) AS n
    FROM events WHERE occurred_at >= ${start} AND occurred_at < ${end} ${inIds}
    GROUP BY substr(occurred_at, 1, 13), kind, page_kind, is_entry, CASE WHEN session_key IS NULL THEN 0 ELSE 1 END`.execute(ctx.db);
  const METRIC: Record<string, string> = {
    bag_add: "bag_adds",
    checkout_view: "checkout_views",
    order: "orders",
    payment: "payments",
  };
  for (const row of perKind.rows) {
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
  const sessions = await sql<{ kind: string; sessionKey: string; first: string }>`
    SELECT kind, session_key, min(occurred_at) AS first
    FROM events WHERE occurred_at >= ${start} AND occurred_at < ${end} ${inIds}
      AND session_key IS NOT NULL AND kind IN ('view', 'bag_add', 'checkout_view')
    GROUP BY kind, session_key`.execute(ctx.db);
  const firstSeen = new Map<string, string>();
  for (const row of sessions.rows) {
    const seen = firstSeen.get(row.sessionKey);
    if (!seen || row.first < seen) firstSeen.set(row.sessionKey, row.first);
    if (row.kind === "bag_add") add(counts, hourOf(row.first), "bagged", 1);
    if (row.kind === "checkout_view") add(counts, hourOf(row.first), "checkout_sessions", 1);
  }
  for (const first of firstSeen.values()) add(counts, hourOf(first), "visitors", 1);
  return counts;
}

/** Writes one day's counts: replacing the day's hours (a full recount) or adding to them. */
async function writeDay(ctx: AppContext, start: string, end: string, counts: Counts, mode: "replace" | "add") {
  const rows = [...counts].map(([key, count]) => {
    const [hour, metric] = key.split("|") as [string, string];
    return { hour, metric, count };
  });
  await ctx.db.transaction().execute(async (trx) => {
    if (mode === "replace")
      await trx
        .deleteFrom("eventHours")
        .where("hour", ">=", start)
        .where("hour", "<", end)
        .where((eb) => eb.or([eb("metric", "in", EVENT_METRICS), eb("metric", "like", "views:%")]))
        .execute();
    for (let i = 0; i < rows.length; i += 200) {
      await trx
        .insertInto("eventHours")
        .values(rows.slice(i, i + 200))
        .onConflict((oc) =>
          oc.columns(["metric", "hour"]).doUpdateSet((eb) => ({ count: eb("eventHours.count", "+", eb.ref("excluded.count")) })),
        )
        .execute();
    }
  });
}

export interface RollUpResult {
  /** Store days recounted. */
  days: number;
  /** Raw events deleted (older than KEEP_RAW_DAYS, already rolled up). */
  compacted: number;
}

/**
 * Rolls up what arrived since the last run and compacts (`stillLeader` renews the sweeper's lease
 * between days). Days still holding all their raw events
 * (within KEEP_RAW_DAYS) are recounted whole; an older day (events arriving after its raw ones
 * were compacted: a clock set back, an import) only has the new events added.
 */
export async function rollUpEvents(ctx: AppContext, stillLeader: () => Promise<boolean> = async () => true): Promise<RollUpResult> {
  const now = ctx.clock.now();
  const cutoff = storeDayStart(nextStoreDay(storeDayOf(now), -KEEP_RAW_DAYS)).toISOString();
  const state = await ctx.db.selectFrom("eventRollup").select("rolledToId").where("id", "=", 1).executeTakeFirst();
  const afterId = state?.rolledToId ?? 0;
  const span = await ctx.db
    .selectFrom("events")
    .select((eb) => [eb.fn.max("id").as("upToId"), eb.fn.min("occurredAt").as("first"), eb.fn.max("occurredAt").as("last")])
    .where("id", ">", afterId)
    .executeTakeFirst();
  let days = 0;
  const upToId = span?.upToId === null || span?.upToId === undefined ? afterId : Number(span.upToId);
  if (upToId > afterId && span?.first && span.last) {
    for (let day = storeDayOf(new Date(span.first)); day <= storeDayOf(new Date(span.last)); day = nextStoreDay(day, 1)) {
      const start = storeDayStart(day).toISOString();
      const end = storeDayStart(nextStoreDay(day, 1)).toISOString();
      // A long first roll-up (a month of events) renews the sweeper's lease between days, and stops
      // if it was lost: another worker carries on from the same mark, never counting a day twice at once.
      if (!(await stillLeader())) return { days, compacted: 0 };
      const whole = start >= cutoff;
      const counts = await countDay(ctx, start, end, whole ? null : { afterId, upToId });
      if (counts.size === 0 && !whole) continue;
      await writeDay(ctx, start, end, counts, whole ? "replace" : "add");
      days += 1;
    }
    await ctx.db
      .insertInto("eventRollup")
      .values({ id: 1, rolledToId: upToId, rolledAt: now.toISOString() })
      .onConflict((oc) => oc.column("id").doUpdateSet({ rolledToId: upToId, rolledAt: now.toISOString() }))
      .execute();
  }
  // In batches: a drop's worth of old events is not deleted under one long write lock.
  let compacted = 0;
  for (;;) {
    const result = await sql`
      DELETE FROM events WHERE id IN (
        SELECT id FROM events WHERE occurred_at < ${cutoff} AND id <= ${upToId} LIMIT ${DELETE_BATCH})`.execute(ctx.db);
    const deleted = Number(result.numAffectedRows ?? 0);
    compacted += deleted;
    if (deleted < DELETE_BATCH) break;
  }
  return { days, compacted };
}

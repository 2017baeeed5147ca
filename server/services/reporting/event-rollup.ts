import { sql, type Transaction } from "kysely";
import type { DB } from "#db/schema";
import type { AppContext } from "#server/context";
import { countNewEvents, countWholeDay, type Counts, type DayCounts } from "./event-counts";
import { addStoreDays, storeDayOf, storeDayStart, storeToday } from "#server/contracts/store-time";

/**
 * The roll-ups behind the funnel and the charts (decisions 0025 and 0034), run by the sweeper's
 * leader every 30 s: what arrived since the last run is counted into `event_hours`
 * (event-counts.ts), then raw events older than KEEP_RAW_DAYS, which the roll-ups hold, are deleted.
 *
 * Today (and yesterday, for SETTLE_MS after midnight) only has the new events added: on a drop day
 * a whole recount reads up to a million events, seconds of the leader's time on every run, while
 * adding a run's few thousand costs milliseconds. Once such a day has settled it is recounted whole
 * once, which counts an event whose id a run passed before it was committed (PostgreSQL). Any other
 * day that receives events is recounted whole.
 */
export const KEEP_RAW_DAYS = 30;
/** Long enough for a day's last batches to be written, retried and committed. */
export const SETTLE_MS = 5 * 60_000;
const DELETE_BATCH = 20_000;
/** The `event_sessions` row that says a day's sessions are all there. */
const ALL_SESSIONS = "";

// The metrics this roll-up owns: the same hours hold the orders' (order-rollup.ts), kept on a recount.
const EVENT_METRICS = [
  "views",
  "entries",
  "visitors",
  "bag_adds",
  "checkout_views",
  "orders",
  "payments",
  "bagged",
  "checkout_sessions",
  "events_dropped",
];

type Trx = Transaction<DB>;

async function addCounts(trx: Trx, counts: Counts) {
  const rows = [...counts].map(([key, count]) => {
    const [hour, metric] = key.split("|") as [string, string];
    return { hour, metric, count };
  });
  for (let i = 0; i < rows.length; i += 200) {
    await trx
      .insertInto("eventHours")
      .values(rows.slice(i, i + 200))
      .onConflict((oc) =>
        oc.columns(["metric", "hour"]).doUpdateSet((eb) => ({ count: eb("eventHours.count", "+", eb.ref("excluded.count")) })),
      )
      .execute();
  }
  // A session's first visit moved to an earlier hour leaves 0 in the later one, where a recount has no row.
  for (const row of rows.filter((r) => r.count < 0))
    await trx.deleteFrom("eventHours").where("metric", "=", row.metric).where("hour", "=", row.hour).where("count", "<=", 0).execute();
}

/** Clears a day's hours and forgets its sessions, before a whole recount is written. */
async function clearDay(trx: Trx, day: string, start: string, end: string) {
  await trx
    .deleteFrom("eventHours")
    .where("hour", ">=", start)
    .where("hour", "<", end)
    .where((eb) => eb.or([eb("metric", "in", EVENT_METRICS), eb("metric", "like", "views:%")]))
    .execute();
  await trx.deleteFrom("eventSessions").where("day", "=", day).execute();
}

/** Records when the counted sessions first did what, so the next run can tell new ones from those seen. */
async function keepSessions(trx: Trx, day: string, { sessions }: DayCounts, all: boolean) {
  const rows = [...sessions].map(([sessionKey, firsts]) => ({ day, sessionKey, ...firsts }));
  if (all) rows.push({ day, sessionKey: ALL_SESSIONS, seenAt: null, baggedAt: null, checkoutAt: null });
  for (let i = 0; i < rows.length; i += 200) {
    await trx
      .insertInto("eventSessions")
      .values(rows.slice(i, i + 200))
      .onConflict((oc) =>
        oc.columns(["day", "sessionKey"]).doUpdateSet((eb) => ({
          seenAt: eb.ref("excluded.seenAt"),
          baggedAt: eb.ref("excluded.baggedAt"),
          checkoutAt: eb.ref("excluded.checkoutAt"),
        })),
      )
      .execute();
  }
}

/** What a run writes with the mark: a day added to (its sessions kept) or an old day's additions. */
interface Addition extends DayCounts {
  day: string;
  start: string;
  end: string;
  whole: boolean;
  keep: boolean;
}

class MarkMoved extends Error {}

/**
 * Writes the additions and moves the mark in one transaction, only if the mark is still where this
 * run found it: a run that lost the lease halfway, or ran beside another leader, adds nothing twice.
 */
async function addAndMark(ctx: AppContext, additions: Addition[], mark: { from: number | null; to: number; at: string }) {
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // The mark first: a second leader waits here for the first's commit, then gives up before
      // touching any hour (on PostgreSQL two upserting the same hours could deadlock instead).
      const { from, to, at } = mark;
      const moved =
        from === null
          ? (
              await trx
                .insertInto("eventRollup")
                .values({ id: 1, rolledToId: to, rolledAt: at })
                .onConflict((oc) => oc.column("id").doNothing())
                .executeTakeFirst()
            ).numInsertedOrUpdatedRows
          : (
              await trx
                .updateTable("eventRollup")
                .set({ rolledToId: to, rolledAt: at })
                .where("id", "=", 1)
                .where("rolledToId", "=", from)
                .executeTakeFirst()
            ).numUpdatedRows;
      if (Number(moved ?? 0) !== 1) throw new MarkMoved();
      for (const addition of additions) {
        if (addition.whole) await clearDay(trx, addition.day, addition.start, addition.end);
        await addCounts(trx, addition.counts);
        if (addition.keep) await keepSessions(trx, addition.day, addition, addition.whole);
      }
    });
    return true;
  } catch (error) {
    if (error instanceof MarkMoved) return false;
    throw error;
  }
}

export interface RollUpResult {
  /** Store days recounted or added to. */
  days: number;
  /** Raw events deleted (older than KEEP_RAW_DAYS, already rolled up). */
  compacted: number;
}

/**
 * Rolls up what arrived since the last run and compacts (`stillLeader` renews the sweeper's lease
 * between days). A day older than KEEP_RAW_DAYS (events arriving after its raw ones were
 * compacted: a clock set back, an import) only has the new events added.
 */
export async function rollUpEvents(ctx: AppContext, stillLeader: () => Promise<boolean> = async () => true): Promise<RollUpResult> {
  const now = ctx.clock.now();
  const cutoffDay = addStoreDays(storeDayOf(now), -KEEP_RAW_DAYS);
  const cutoff = storeDayStart(cutoffDay).toISOString();
  const state = await ctx.db.selectFrom("eventRollup").select("rolledToId").where("id", "=", 1).executeTakeFirst();
  const afterId = state?.rolledToId ?? 0;
  const span = await ctx.db
    .selectFrom("events")
    .select((eb) => [eb.fn.max("id").as("upToId"), eb.fn.min("occurredAt").as("first"), eb.fn.max("occurredAt").as("last")])
    .where("id", ">", afterId)
    .executeTakeFirst();
  const upToId = span?.upToId === null || span?.upToId === undefined ? afterId : Number(span.upToId);
  const firstAdded = storeDayOf(new Date(now.getTime() - SETTLE_MS));
  const today = storeToday(now);
  // Days added to that have settled since, recounted with or without new events (their sessions
  // are forgotten then, so this reads few rows); and whether the open days' sessions are all kept.
  const sentinels = ctx.db.selectFrom("eventSessions").select("day").where("sessionKey", "=", ALL_SESSIONS);
  const settled = await sentinels.where("day", "<", firstAdded).execute();
  const complete = new Set((await sentinels.where("day", "in", [firstAdded, today]).execute()).map((row) => row.day));
  const days = new Set(settled.map((row) => row.day));
  if (upToId > afterId && span?.first && span.last) {
    for (let day = storeDayOf(new Date(span.first)); day <= storeDayOf(new Date(span.last)); day = addStoreDays(day, 1)) days.add(day);
  }
  let counted = 0;
  const additions: Addition[] = [];
  for (const day of [...days].sort()) {
    const start = storeDayStart(day).toISOString();
    const end = storeDayStart(addStoreDays(day, 1)).toISOString();
    // A long first roll-up (a month of events) renews the sweeper's lease between days, and stops
    // if it was lost: another worker carries on from the same mark, never counting a day twice at once.
    if (!(await stillLeader())) return { days: counted, compacted: 0 };
    if (day >= firstAdded && day <= today) {
      // Without all its sessions kept (its first run, a new deploy), counted whole once more.
      const whole = !complete.has(day);
      const counts = whole ? await countWholeDay(ctx, start, end, upToId) : await countNewEvents(ctx, day, start, end, { afterId, upToId });
      additions.push({ day, start, end, whole, keep: true, ...counts });
    } else if (start >= cutoff) {
      // Written with the mark, not at once: a run beside a newer one (a lease lost mid-run) would
      // otherwise put back its older count of the day over the newer run's.
      const { counts } = await countWholeDay(ctx, start, end, upToId);
      additions.push({ day, start, end, whole: true, keep: false, counts, sessions: new Map() });
    } else {
      const counts = await countNewEvents(ctx, day, start, end, { afterId, upToId });
      if (counts.counts.size === 0) continue;
      additions.push({ day, start, end, whole: false, keep: false, ...counts });
    }
    counted += 1;
  }
  if (upToId > afterId || additions.length > 0) {
    const mark = { from: state ? afterId : null, to: upToId, at: now.toISOString() };
    if (!(await addAndMark(ctx, additions, mark))) return { days: 0, compacted: 0 };
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
  await ctx.db.deleteFrom("eventSessions").where("day", "<", cutoffDay).execute();
  return { days: counted, compacted };
}

import type { Transaction } from "kysely";
import type { DB } from "#db/schema";
import type { DropListItem } from "#server/contracts/drops";
import type { AppContext } from "#server/context";
import { NotFound } from "#server/errors";
import { getSetting, getSettingValue, setSetting, type Setting } from "#server/services/store/settings";

/**
 * What "a drop" is (decision 0026): one countdown that is or was the store's launch, a row in
 * `drops` keyed by its T-0. A countdown moved before its T-0 came is the same drop rescheduled (its
 * row moves with it); one moved after its T-0 was a drop that happened, and the new date is the
 * next one. The current countdown gets its row on first need, so a store whose launch date is the
 * default, or was set before migration 0016, has its drop too.
 */

export const DROP_MESSAGES = { notFound: "Drop not found." } as const;

/** How far before T-0 a drop's orders count (early access opens before it; 0020's default is 30 minutes). */
export const WINDOW_BEFORE_MS = 60 * 60_000;
/** How long after T-0 a drop's orders count, unless the next drop comes sooner. */
export const WINDOW_AFTER_MS = 24 * 60 * 60_000;

export interface Drop {
  id: number;
  countdownAt: string;
  linePeak: number;
  linePeakAt: string | null;
}

const iso = (value: string) => new Date(value).toISOString();

/** The row of a countdown, made if missing. */
async function dropRowFor(ctx: AppContext, countdownAt: string): Promise<Drop> {
  await ctx.db
    .insertInto("drops")
    .values({ countdownAt, createdAt: ctx.clock.now().toISOString() })
    .onConflict((oc) => oc.column("countdownAt").doNothing())
    .execute();
  return ctx.db
    .selectFrom("drops")
    .select(["id", "countdownAt", "linePeak", "linePeakAt"])
    .where("countdownAt", "=", countdownAt)
    .executeTakeFirstOrThrow();
}

/** The drop of the countdown the store shows now. */
export async function currentDrop(ctx: AppContext): Promise<Drop> {
  const value = await getSettingValue(ctx, "countdown_date");
  return dropRowFor(ctx, iso(value));
}

/**
 * Sets the countdown. Each countdown is a drop with a report of its own (decision 0026): a drop
 * whose T-0 has not come yet is rescheduled (same row, so nothing recorded for it is lost); one
 * whose T-0 has passed keeps its row and the new countdown is a new drop.
 */
export async function saveCountdown(ctx: AppContext, value: string): Promise<Setting> {
  const previous = (await getSetting(ctx, "countdown_date"))?.value ?? null;
  const saved = await setSetting(ctx, "countdown_date", value);
  await noteCountdownChange(ctx, previous, saved.value);
  return saved;
}

async function noteCountdownChange(ctx: AppContext, previous: string | null, next: string): Promise<void> {
  const now = ctx.clock.now().getTime();
  const to = iso(next);
  if (previous !== null && !Number.isNaN(Date.parse(previous)) && iso(previous) !== to) {
    const from = iso(previous);
    if (Date.parse(from) > now) {
      const taken = await ctx.db.selectFrom("drops").select("id").where("countdownAt", "=", to).executeTakeFirst();
      if (!taken) {
        await ctx.db.updateTable("drops").set({ countdownAt: to }).where("countdownAt", "=", from).execute();
      }
    } else {
      await dropRowFor(ctx, from);
    }
  }
  await dropRowFor(ctx, to);
}

/**
 * The waiting room's line is longest right after a join (it only shrinks in between), so the join
 * reports its length after T-0 here, in the join's own transaction; before T-0 the whole early
 * group waits, which the places themselves tell (drop report).
 */
export async function recordLineLength(trx: Transaction<DB>, countdownAt: string, length: number, at: string): Promise<void> {
  await trx
    .insertInto("drops")
    .values({ countdownAt, createdAt: at, linePeak: length, linePeakAt: at })
    .onConflict((oc) => oc.column("countdownAt").doUpdateSet({ linePeak: length, linePeakAt: at }).where("drops.linePeak", "<", length))
    .execute();
}

/** Every drop, newest T-0 first, with the window its orders are counted in. */
export async function listDrops(ctx: AppContext): Promise<DropListItem[]> {
  await currentDrop(ctx);
  const rows = await ctx.db.selectFrom("drops").select(["id", "countdownAt"]).orderBy("countdownAt", "desc").execute();
  const now = ctx.clock.now().getTime();
  return rows.map((row, index) => {
    const window = windowOf(row.countdownAt, rows[index + 1]?.countdownAt ?? null, rows[index - 1]?.countdownAt ?? null);
    const t0 = Date.parse(row.countdownAt);
    return {
      id: row.id,
      countdownAt: row.countdownAt,
      from: window.from,
      to: window.to,
      state: now < t0 ? "upcoming" : now < Date.parse(window.to) ? "live" : "past",
    };
  });
}

/**
 * The orders of a drop are those placed from an hour before T-0 (early access) to a day after it,
 * or until an hour before the next drop's T-0 when that comes sooner, and not before the previous
 * drop's window ends.
 */
export function windowOf(countdownAt: string, previous: string | null, next: string | null): { from: string; to: string } {
  const t0 = Date.parse(countdownAt);
  const endOf = (start: number, following: number | null) =>
    following === null ? start + WINDOW_AFTER_MS : Math.max(start, Math.min(start + WINDOW_AFTER_MS, following - WINDOW_BEFORE_MS));
  const from = previous === null ? t0 - WINDOW_BEFORE_MS : Math.min(t0, Math.max(t0 - WINDOW_BEFORE_MS, endOf(Date.parse(previous), t0)));
  const to = endOf(t0, next === null ? null : Date.parse(next));
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/** One drop with its neighbours' T-0s (for its window), or 404. */
export async function dropById(ctx: AppContext, id: number): Promise<Drop & { from: string; to: string; previous: string | null }> {
  await currentDrop(ctx);
  const row = await ctx.db
    .selectFrom("drops")
    .select(["id", "countdownAt", "linePeak", "linePeakAt"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new NotFound(DROP_MESSAGES.notFound);
  const [previous, next] = await Promise.all([
    ctx.db
      .selectFrom("drops")
      .select("countdownAt")
      .where("countdownAt", "<", row.countdownAt)
      .orderBy("countdownAt", "desc")
      .executeTakeFirst(),
    ctx.db
      .selectFrom("drops")
      .select("countdownAt")
      .where("countdownAt", ">", row.countdownAt)
      .orderBy("countdownAt", "asc")
      .executeTakeFirst(),
  ]);
  const window = windowOf(row.countdownAt, previous?.countdownAt ?? null, next?.countdownAt ?? null);
  return { ...row, ...window, previous: previous?.countdownAt ?? null };
}

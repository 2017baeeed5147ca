import crypto from "node:crypto";
import { sql, type CompiledQuery, type Selectable, type Transaction } from "kysely";
import type { Db } from "#db/client";
import { isPostgres } from "#db/engine";
import type { DB, WaitingRoomTable } from "#db/schema";
import type { WaitingRoomAdmin, WaitingRoomSettings } from "#server/contracts/waiting-room";
import type { AppContext } from "#server/context";
import { getSettingValue } from "#server/services/store/settings";

/**
 * The waiting room (decision 0019). Admission is a pure function of one database row and the
 * time, so every worker agrees without talking to the others: a place is admitted when its number
 * is at most the admitted count, `admittedBase + admitPerMinute × minutes since admittedSince`
 * (frozen while paused). Changing the rate or pausing folds the count so far into the base.
 */

type RoomRow = Selectable<WaitingRoomTable>;
export type Executor = Db | Transaction<DB>;

export interface Room extends WaitingRoomSettings {
  /** The countdown date (T-0), ms. */
  dropAt: number;
  ended: boolean;
  drawn: boolean;
  admittedBase: number;
  admittedSince: number | null;
}

export type Phase = WaitingRoomAdmin["phase"];

export const MINUTE = 60_000;

/** The row as it stands for the current drop: state left from another countdown date starts afresh. */
function roomFrom(row: RoomRow, dropAt: number): Room {
  const current = row.dropAt !== null && Date.parse(row.dropAt) === dropAt;
  return {
    enabled: row.enabled === 1,
    opensMinutesBefore: row.opensMinutesBefore,
    closesMinutesAfter: row.closesMinutesAfter,
    admitPerMinute: row.admitPerMinute,
    passMinutes: row.passMinutes,
    perAddress: row.perAddress,
    dropAt,
    paused: current && row.paused === 1,
    ended: current && row.ended === 1,
    drawn: current && row.drawn === 1,
    admittedBase: current ? row.admittedBase : 0,
    admittedSince: current && row.admittedSince ? Date.parse(row.admittedSince) : null,
  };
}

export async function readRoom(ctx: AppContext, db: Executor = ctx.db): Promise<Room> {
  const [row, countdown] = await Promise.all([
    db.selectFrom("waitingRoom").selectAll().where("id", "=", 1).executeTakeFirstOrThrow(),
    getSettingValue({ ...ctx, db: db as Db }, "countdown_date"),
  ]);
  return roomFrom(row, Date.parse(countdown));
}

export function phaseOf(room: Room, now: number): Phase {
  if (!room.enabled) return "off";
  if (room.ended) return "ended";
  if (!Number.isFinite(room.dropAt)) return "closed";
  if (now < room.dropAt - room.opensMinutesBefore * MINUTE || now >= room.dropAt + room.closesMinutesAfter * MINUTE) return "closed";
  return now < room.dropAt ? "before" : "open";
}

/** True while visitors need a pass for the store, the bag and checkout. */
export const isGated = (phase: Phase) => phase === "before" || phase === "open";

/** How many places have been let in by `now` (a real number; place p is in when p ≤ it). */
export function admittedCount(room: Room, now: number): number {
  if (now < room.dropAt || room.paused) return room.admittedBase;
  const since = Math.max(room.admittedSince ?? room.dropAt, room.dropAt);
  return room.admittedBase + (room.admitPerMinute * Math.max(0, now - since)) / MINUTE;
}

// The gate asks on every store request: the room is read at most once a second per process.
const cache = new WeakMap<Db, { readAt: number; room: Room }>();
const CACHE_MS = 1_000;

/** The room as this process last read it, at most a second old: for the gate, never for admission. */
export async function cachedRoom(ctx: AppContext): Promise<Room> {
  const now = ctx.clock.now().getTime();
  const hit = cache.get(ctx.db);
  if (hit && now - hit.readAt < CACHE_MS && now >= hit.readAt) return hit.room;
  const room = await readRoom(ctx);
  cache.set(ctx.db, { readAt: now, room });
  return room;
}

/** After this process changed the room: its next look reads it again. */
export function forgetCachedRoom(ctx: AppContext): void {
  cache.delete(ctx.db);
}

/** The cached room without waiting, when this process has a fresh one (the gate's fast path). */
export function freshCachedRoom(ctx: AppContext): Room | null {
  const now = ctx.clock.now().getTime();
  const hit = cache.get(ctx.db);
  return hit && now - hit.readAt < CACHE_MS && now >= hit.readAt ? hit.room : null;
}

/**
 * Brings the row to the current drop inside a write transaction; returns the room it now holds.
 * Every write to the room or its line starts here, so the room's row is the line's lock: on
 * SQLite the transaction already holds the write lock (BEGIN IMMEDIATE); on PostgreSQL, under
 * READ COMMITTED, the row is locked first, so two joins cannot both read the same last place
 * (tests/integration/postgres-races.test.ts). What follows reads after the lock, so it sees
 * whatever the previous holder committed.
 */
export async function roomForWrite(ctx: AppContext, trx: Transaction<DB>): Promise<Room> {
  if (isPostgres(trx)) await trx.selectFrom("waitingRoom").select("id").where("id", "=", 1).forUpdate().execute();
  const room = await readRoom(ctx, trx);
  const row = await trx.selectFrom("waitingRoom").select("dropAt").where("id", "=", 1).executeTakeFirstOrThrow();
  const key = new Date(room.dropAt).toISOString();
  if (Number.isFinite(room.dropAt) && row.dropAt !== key) {
    await trx
      .updateTable("waitingRoom")
      .set({ dropAt: key, paused: 0, ended: 0, drawn: 0, admittedBase: 0, admittedSince: null })
      .where("id", "=", 1)
      .execute();
  }
  return room;
}

export const dropKey = (room: Room) => new Date(room.dropAt).toISOString();

/**
 * The fair start: at T-0 everyone who joined before it gets a place 1..n in an order drawn with
 * a cryptographic RNG, once. The draw runs inside a BEGIN IMMEDIATE transaction that also sets
 * `drawn`, so with several workers the first one draws and the others see it done.
 */
export async function drawIfDue(ctx: AppContext, trx: Transaction<DB>, room: Room, now: number): Promise<Room> {
  if (room.drawn || now < room.dropAt) return room;
  const early = await trx
    .selectFrom("waitingRoomPlaces")
    .select("id")
    .where("dropAt", "=", dropKey(room))
    .where("place", "is", null)
    .orderBy("joinedAt")
    .execute();
  const ids = early.map((row) => row.id);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  for (let from = 0; from < ids.length; from += DRAW_BATCH) await writePlaces(trx, ids.slice(from, from + DRAW_BATCH), from + 1);
  await trx.updateTable("waitingRoom").set({ drawn: 1 }).where("id", "=", 1).execute();
  return { ...room, drawn: true };
}

/**
 * Places written DRAW_BATCH at a time, one statement each: one UPDATE a place held the write lock
 * (and every purchase behind it) for 0.63 s at 20,000 in line, 3 s or more at 100,000. A full
 * batch's statement is compiled once per dialect, as compiledOnce does for fixed shapes: building
 * it afresh cost more than SQLite's work. 2 parameters a row stay far below either engine's limit
 * (SQLite 32,766, PostgreSQL 65,535).
 */
const DRAW_BATCH = 500;
const fullBatch = new WeakMap<object, CompiledQuery>();

function writePlaces(trx: Transaction<DB>, ids: string[], first: number) {
  const adapter = trx.getExecutor().adapter;
  let query = ids.length === DRAW_BATCH ? fullBatch.get(adapter) : undefined;
  if (!query) {
    // The place cast: PostgreSQL reads an untyped parameter in VALUES as text.
    const rows = ids.map(() => sql`(${""}, CAST(${0} AS INTEGER))`);
    query = sql`WITH drawn (id, place) AS (VALUES ${sql.join(rows)})
      UPDATE waiting_room_places SET place = drawn.place FROM drawn WHERE waiting_room_places.id = drawn.id`.compile(trx);
    if (ids.length === DRAW_BATCH) fullBatch.set(adapter, query);
  }
  return trx.executeQuery({ ...query, parameters: ids.flatMap((id, k) => [id, first + k]) });
}

export async function ensureDrawn(ctx: AppContext, room: Room, now: number): Promise<void> {
  if (room.drawn || now < room.dropAt || !isGated(phaseOf(room, now))) return;
  await ctx.db.transaction().execute(async (trx) => drawIfDue(ctx, trx, await roomForWrite(ctx, trx), now));
}

/** The highest place number given out in this drop (0 when none). */
export async function lastPlace(trx: Transaction<DB>, room: Room): Promise<number> {
  const { last } = await trx
    .selectFrom("waitingRoomPlaces")
    .select((eb) => eb.fn.max<number | null>("place").as("last"))
    .where("dropAt", "=", dropKey(room))
    .executeTakeFirstOrThrow();
  return last ?? 0;
}

/** One second's admissions (at least one place): how far ahead of the line the count may run. */
export const burstOf = (room: Room) => Math.max(1, room.admitPerMinute / 60);

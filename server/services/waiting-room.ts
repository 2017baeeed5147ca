import crypto from "node:crypto";
import type { Db } from "../../db/client";
import type { WaitingRoomTable } from "../../db/schema";
import type { Selectable, Transaction } from "kysely";
import type { DB } from "../../db/schema";
import {
  WAITING_ROOM_MESSAGES,
  waitingRoomPatchSchema,
  type WaitingRoomAdmin,
  type WaitingRoomSettings,
  type WaitingRoomStatus,
} from "../contracts/waiting-room";
import type { AppContext } from "../context";
import { Invalid, TooMany } from "../errors";
import { getSettingValue } from "./settings";
import { readPass, signPass, type Pass } from "./waiting-room-pass";

/**
 * The waiting room (decision 0019). Admission is a pure function of one database row and the
 * time, so every worker agrees without talking to the others: a place is admitted when its number
 * is at most the admitted count, `admittedBase + admitPerMinute × minutes since admittedSince`
 * (frozen while paused). Changing the rate or pausing folds the count so far into the base.
 */

type RoomRow = Selectable<WaitingRoomTable>;
type Executor = Db | Transaction<DB>;

export interface Room extends WaitingRoomSettings {
  /** The countdown date (T-0), ms. */
  dropAt: number;
  ended: boolean;
  drawn: boolean;
  admittedBase: number;
  admittedSince: number | null;
}

export type Phase = WaitingRoomAdmin["phase"];

const MINUTE = 60_000;

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

async function readRoom(ctx: AppContext, db: Executor = ctx.db): Promise<Room> {
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

/** The cached room without waiting, when this process has a fresh one (the gate's fast path). */
export function freshCachedRoom(ctx: AppContext): Room | null {
  const now = ctx.clock.now().getTime();
  const hit = cache.get(ctx.db);
  return hit && now - hit.readAt < CACHE_MS && now >= hit.readAt ? hit.room : null;
}

/** Brings the row to the current drop inside a write transaction; returns the room it now holds. */
async function roomForWrite(ctx: AppContext, trx: Transaction<DB>): Promise<Room> {
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

const dropKey = (room: Room) => new Date(room.dropAt).toISOString();

/**
 * The fair start: at T-0 everyone who joined before it gets a place 1..n in an order drawn with
 * a cryptographic RNG, once. The draw runs inside a BEGIN IMMEDIATE transaction that also sets
 * `drawn`, so with several workers the first one draws and the others see it done.
 */
async function drawIfDue(ctx: AppContext, trx: Transaction<DB>, room: Room, now: number): Promise<Room> {
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
  for (const [index, id] of ids.entries()) {
    await trx
      .updateTable("waitingRoomPlaces")
      .set({ place: index + 1 })
      .where("id", "=", id)
      .execute();
  }
  await trx.updateTable("waitingRoom").set({ drawn: 1 }).where("id", "=", 1).execute();
  return { ...room, drawn: true };
}

async function ensureDrawn(ctx: AppContext, room: Room, now: number): Promise<void> {
  if (room.drawn || now < room.dropAt || !isGated(phaseOf(room, now))) return;
  await ctx.db.transaction().execute(async (trx) => drawIfDue(ctx, trx, await roomForWrite(ctx, trx), now));
}

/** The highest place number given out in this drop (0 when none). */
async function lastPlace(trx: Transaction<DB>, room: Room): Promise<number> {
  const { last } = await trx
    .selectFrom("waitingRoomPlaces")
    .select((eb) => eb.fn.max<number | null>("place").as("last"))
    .where("dropAt", "=", dropKey(room))
    .executeTakeFirstOrThrow();
  return last ?? 0;
}

/** One second's admissions (at least one place): how far ahead of the line the count may run. */
const burstOf = (room: Room) => Math.max(1, room.admitPerMinute / 60);

interface PlaceRow {
  id: string;
  place: number | null;
  joinedAt: string;
  admittedAt: string | null;
}

function placeIdValid(id: string | null | undefined): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(id);
}

const passUntilOf = (room: Room, place: PlaceRow, pass: Pass | null) =>
  Math.max(place.admittedAt ? Date.parse(place.admittedAt) + room.passMinutes * MINUTE : 0, pass?.expiresAt ?? 0);

/** A place whose pass has run out is spent: its browser joins again at the back. */
function isSpent(room: Room, place: PlaceRow, pass: Pass | null, now: number): boolean {
  return place.admittedAt !== null && passUntilOf(room, place, pass) <= now;
}

function statusOf(room: Room, place: PlaceRow | null, now: number, pass: Pass | null): WaitingRoomStatus {
  const phase = phaseOf(room, now);
  const none = { position: null, ahead: null, etaSeconds: null, admittedUntil: null };
  if (!isGated(phase)) return { state: "closed", ...none };
  if (phase === "before" || !place || place.place === null) return { state: phase === "before" ? "before" : "waiting", ...none };
  const admitted = Math.floor(admittedCount(room, now) + 1e-9);
  if (place.place <= admitted) {
    const until = passUntilOf(room, place, pass) || now + room.passMinutes * MINUTE;
    return { state: "admitted", position: place.place, ahead: 0, etaSeconds: 0, admittedUntil: new Date(until).toISOString() };
  }
  const ahead = place.place - 1 - admitted;
  const etaSeconds = room.paused ? null : Math.ceil(((place.place - admittedCount(room, now)) / room.admitPerMinute) * 60);
  return { state: "waiting", position: place.place, ahead, etaSeconds, admittedUntil: null };
}

async function findPlace(ctx: AppContext, db: Executor, room: Room, placeId: string | null | undefined): Promise<PlaceRow | null> {
  if (!placeIdValid(placeId)) return null;
  const row = await db
    .selectFrom("waitingRoomPlaces")
    .select(["id", "place", "joinedAt", "admittedAt"])
    .where("id", "=", placeId)
    .where("dropAt", "=", dropKey(room))
    .executeTakeFirst();
  return row ?? null;
}

export interface PlaceStatus {
  status: WaitingRoomStatus;
  /** The browser's place id (new when it joined now); null when the room is closed. */
  placeId: string | null;
  /** Set when the place is admitted: the pass to hand the browser. */
  pass: { token: string; expiresAt: number } | null;
}

/** Records the moment a place's turn was first seen (its pass runs from then) and signs its pass. */
async function withPass(
  ctx: AppContext,
  room: Room,
  place: PlaceRow,
  status: WaitingRoomStatus,
  now: number,
  pass: Pass | null,
): Promise<PlaceStatus> {
  if (status.state !== "admitted") return { status, placeId: place.id, pass: null };
  if (!place.admittedAt) {
    const admittedAt = new Date(now).toISOString();
    await ctx.db.updateTable("waitingRoomPlaces").set({ admittedAt }).where("id", "=", place.id).where("admittedAt", "is", null).execute();
    place = { ...place, admittedAt };
  }
  const expiresAt = passUntilOf(room, place, pass);
  const token = signPass(ctx.config, { subject: place.id, expiresAt, dropAt: room.dropAt });
  return { status: { ...status, admittedUntil: new Date(expiresAt).toISOString() }, placeId: place.id, pass: { token, expiresAt } };
}

/**
 * GET /api/waiting-room and each refresh of the page: where this browser's place stands. Reads
 * the row afresh (two primary-key reads and one for the place); writes only at the draw and once
 * when a place's turn comes.
 */
export async function lineStatus(ctx: AppContext, input: { placeId: string | null; passToken?: string | null }): Promise<PlaceStatus> {
  const now = ctx.clock.now().getTime();
  // Thousands poll, and nearly every answer is "still waiting": that one comes from the room this
  // process read within the last second and one primary-key read of the place. A turn, the draw
  // and everything else are decided on the room read afresh, so the cache can only delay a turn by
  // up to a second (after a resume or a faster rate), never let anyone in early.
  const cached = await cachedRoom(ctx);
  const quick = await findPlace(ctx, ctx.db, cached, input.placeId);
  if (quick && quick.admittedAt === null && (cached.drawn || now < cached.dropAt)) {
    const status = statusOf(cached, quick, now, null);
    if (status.state === "before" || (status.state === "waiting" && status.position !== null))
      return { status, placeId: quick.id, pass: null };
  }
  let room = await readRoom(ctx);
  if (!room.drawn && now >= room.dropAt && isGated(phaseOf(room, now))) {
    await ensureDrawn(ctx, room, now);
    room = await readRoom(ctx);
  }
  const pass = readPass(ctx.config, input.passToken, now, room.dropAt);
  const place = await findPlace(ctx, ctx.db, room, input.placeId);
  if (!place || isSpent(room, place, pass, now)) return { status: statusOf(room, null, now, null), placeId: null, pass: null };
  return withPass(ctx, room, place, statusOf(room, place, now, pass), now, pass);
}

/**
 * POST /api/waiting-room, and the page: joins the line, or returns the place this browser
 * already has. Before T-0 a place has no number yet (the draw gives it one); after it, the next
 * number. At most `perAddress` places per address and drop. When nobody is waiting the admitted
 * count has run ahead of the line; it is pulled back to the line's end plus one second's worth,
 * so an arrival goes straight in but a sudden crowd is still let in at the rate.
 */
export async function joinLine(
  ctx: AppContext,
  input: { placeId: string | null; address: string; passToken?: string | null },
): Promise<PlaceStatus & { joined: boolean }> {
  const existing = await lineStatus(ctx, input);
  if (existing.placeId || existing.status.state === "closed") return { ...existing, joined: false };
  const now = ctx.clock.now().getTime();
  const id = crypto.randomBytes(18).toString("base64url");
  const address = input.address.slice(0, 100);
  const placed = await ctx.db.transaction().execute(async (trx) => {
    let room = await roomForWrite(ctx, trx);
    if (!isGated(phaseOf(room, now))) return null;
    const { count } = await trx
      .selectFrom("waitingRoomPlaces")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("dropAt", "=", dropKey(room))
      .where("address", "=", address)
      .executeTakeFirstOrThrow();
    if (Number(count) >= room.perAddress) throw new TooMany(WAITING_ROOM_MESSAGES.tooManyPlaces, 60);
    let place: number | null = null;
    if (now >= room.dropAt) {
      room = await drawIfDue(ctx, trx, room, now);
      const last = await lastPlace(trx, room);
      place = last + 1;
      const ceiling = last + burstOf(room);
      if (!room.paused && admittedCount(room, now) > ceiling) {
        await trx
          .updateTable("waitingRoom")
          .set({ admittedBase: ceiling, admittedSince: new Date(now).toISOString() })
          .where("id", "=", 1)
          .execute();
      }
    }
    await trx
      .insertInto("waitingRoomPlaces")
      .values({ id, dropAt: dropKey(room), place, address, joinedAt: new Date(now).toISOString(), admittedAt: null })
      .execute();
    return true;
  });
  if (!placed) return { ...existing, joined: false };
  return { ...(await lineStatus(ctx, { placeId: id })), joined: true };
}

/**
 * A pass for a browser without waiting: a place's own (as the line hands it out) or an
 * early-access visitor's (issue 12 part 2 calls this). Valid for `passMinutes` from now.
 */
export async function issuePass(
  ctx: AppContext,
  input: { placeId: string } | { reason: "early-access"; subject?: string },
): Promise<{ token: string; expiresAt: number }> {
  const now = ctx.clock.now().getTime();
  const room = await readRoom(ctx);
  const subject = "placeId" in input ? input.placeId : (input.subject ?? `ea-${crypto.randomBytes(12).toString("base64url")}`);
  const expiresAt = now + room.passMinutes * MINUTE;
  return { token: signPass(ctx.config, { subject, expiresAt, dropAt: room.dropAt }), expiresAt };
}

/** The pass from a cookie when it is valid for the current drop, checked without the database (the room is cached). */
export function validPass(ctx: AppContext, room: Room, token: string | null | undefined): Pass | null {
  return readPass(ctx.config, token, ctx.clock.now().getTime(), room.dropAt);
}

/** A pass renewed for `passMinutes` from now: a shopper in checkout is not sent back to the line mid-payment. */
export function renewedPass(ctx: AppContext, room: Room, pass: Pass): { token: string; expiresAt: number } {
  const expiresAt = Math.max(pass.expiresAt, ctx.clock.now().getTime() + room.passMinutes * MINUTE);
  return { token: signPass(ctx.config, { ...pass, expiresAt }), expiresAt };
}

/** Seconds a refused buyer should wait before trying again: about one place's turn, at least 5 s. */
export function retryAfterSeconds(room: Room): number {
  return Math.max(5, Math.ceil(60 / Math.max(1, room.admitPerMinute)));
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The settings and the live line, for GET /api/admin/waiting-room and the admin page. */
export async function waitingRoomAdmin(ctx: AppContext): Promise<WaitingRoomAdmin> {
  const now = ctx.clock.now().getTime();
  let room = await readRoom(ctx);
  if (!room.drawn && now >= room.dropAt && isGated(phaseOf(room, now))) {
    await ensureDrawn(ctx, room, now);
    room = await readRoom(ctx);
  }
  const phase = phaseOf(room, now);
  const admitted = now >= room.dropAt ? Math.floor(admittedCount(room, now) + 1e-9) : 0;
  const places = Number.isFinite(room.dropAt)
    ? await ctx.db.selectFrom("waitingRoomPlaces").select(["place", "joinedAt", "admittedAt"]).where("dropAt", "=", dropKey(room)).execute()
    : [];
  const inLine = places.filter((p) => p.place === null || p.place > admitted).length;
  const wasAdmitted = places.filter((p) => p.place !== null && p.place <= admitted).length;
  const lastMinute = places.filter((p) => p.admittedAt !== null && Date.parse(p.admittedAt) > now - MINUTE).length;
  const waits = places
    .filter((p) => p.admittedAt !== null)
    .map((p) => (Date.parse(p.admittedAt!) - Math.max(Date.parse(p.joinedAt), room.dropAt)) / 1000);
  const medianWait = median(waits);
  return {
    enabled: room.enabled,
    opensMinutesBefore: room.opensMinutesBefore,
    closesMinutesAfter: room.closesMinutesAfter,
    admitPerMinute: room.admitPerMinute,
    paused: room.paused,
    passMinutes: room.passMinutes,
    perAddress: room.perAddress,
    dropAt: Number.isFinite(room.dropAt) ? new Date(room.dropAt).toISOString() : "",
    phase,
    ended: room.ended,
    waiting: isGated(phase) ? inLine : 0,
    admitted: wasAdmitted,
    admittedLastMinute: lastMinute,
    medianWaitSeconds: medianWait === null ? null : Math.round(Math.max(0, medianWait)),
  };
}

/**
 * PATCH /api/admin/waiting-room and the admin page's buttons. A rate change or a pause first folds
 * the count admitted so far into the base, so nobody already admitted is taken back and nobody
 * waiting jumps ahead. Bad input changes nothing.
 */
export async function updateWaitingRoom(ctx: AppContext, input: unknown): Promise<WaitingRoomAdmin> {
  const parsed = waitingRoomPatchSchema.safeParse(input ?? {});
  if (!parsed.success) throw Invalid.fromZod(parsed.error);
  const patch = parsed.data;
  const now = ctx.clock.now().getTime();
  await ctx.db.transaction().execute(async (trx) => {
    // Drawn first, so that the early group's places count as the line the admission is capped to.
    let room = await roomForWrite(ctx, trx);
    if (isGated(phaseOf(room, now))) room = await drawIfDue(ctx, trx, room, now);
    const set: Partial<Omit<RoomRow, "id">> = {};
    const rateChanges = patch.admitPerMinute !== undefined && patch.admitPerMinute !== room.admitPerMinute;
    const pauseChanges = patch.paused !== undefined && patch.paused !== room.paused;
    if (rateChanges || pauseChanges) {
      // Capacity nobody used (an empty line) is not saved up for whoever comes after the change:
      // a pause admits no one, not even an arrival who finds the line empty.
      const pausedAfter = patch.paused ?? room.paused;
      const last = await lastPlace(trx, room);
      set.admittedBase = Math.min(admittedCount(room, now), pausedAfter ? last : last + burstOf(room));
      set.admittedSince = new Date(Math.max(now, room.dropAt)).toISOString();
    }
    if (patch.enabled !== undefined) set.enabled = patch.enabled ? 1 : 0;
    if (patch.opensMinutesBefore !== undefined) set.opensMinutesBefore = patch.opensMinutesBefore;
    if (patch.closesMinutesAfter !== undefined) set.closesMinutesAfter = patch.closesMinutesAfter;
    if (patch.admitPerMinute !== undefined) set.admitPerMinute = patch.admitPerMinute;
    if (patch.paused !== undefined) set.paused = patch.paused ? 1 : 0;
    if (patch.passMinutes !== undefined) set.passMinutes = patch.passMinutes;
    if (patch.perAddress !== undefined) set.perAddress = patch.perAddress;
    if (patch.ended !== undefined) set.ended = patch.ended ? 1 : 0;
    if (Object.keys(set).length > 0) await trx.updateTable("waitingRoom").set(set).where("id", "=", 1).execute();
  });
  cache.delete(ctx.db);
  return waitingRoomAdmin(ctx);
}

/** For the page: the browser's place, joining when it has none. Never throws for the per-address cap: says so instead. */
export async function enterWaitingRoom(
  ctx: AppContext,
  input: { placeId: string | null; address: string; passToken?: string | null },
): Promise<
  | (PlaceStatus & { joined: boolean; refused: null })
  | { refused: string; status: WaitingRoomStatus; placeId: null; pass: null; joined: false }
> {
  try {
    return { ...(await joinLine(ctx, input)), refused: null };
  } catch (error) {
    if (!(error instanceof TooMany)) throw error;
    const { status } = await lineStatus(ctx, { placeId: null });
    return { refused: error.message, status, placeId: null, pass: null, joined: false };
  }
}

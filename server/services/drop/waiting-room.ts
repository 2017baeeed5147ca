import crypto from "node:crypto";
import { WAITING_ROOM_MESSAGES, type WaitingRoomStatus } from "#server/contracts/waiting-room";
import type { AppContext } from "#server/context";
import { TooMany } from "#server/errors";
import { compiledOnce } from "#db/compiled-query";
import { logError } from "#server/observability/log";
import { networkOf } from "#server/services/security/client-network";
import { recordLineLength } from "./drops";
import { bindPassToBag, passFreeFor } from "./pass-bindings";
import { readPass, signPass, type Pass } from "./waiting-room-pass";
import {
  admittedCount,
  burstOf,
  cachedRoom,
  drawIfDue,
  dropKey,
  ensureDrawn,
  isGated,
  lastPlace,
  MINUTE,
  phaseOf,
  readRoom,
  roomForWrite,
  type Executor,
  type Room,
} from "./waiting-room-state";

/**
 * The line of the waiting room (decision 0019): joining, where a place stands, and the pass a
 * place gets when its turn comes. The room's row and its admission clock are in
 * waiting-room-state.ts; the admin's figures and changes in waiting-room-admin.ts.
 */

interface PlaceRow {
  id: string;
  place: number | null;
  joinedAt: string;
  admittedAt: string | null;
}

function placeIdValid(id: string | null | undefined): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(id);
}

// A pass counts for its own place only: another place's pass (a copied cookie) extends nothing.
const passUntilOf = (room: Room, place: PlaceRow, pass: Pass | null) =>
  Math.max(
    place.admittedAt ? Date.parse(place.admittedAt) + room.passMinutes * MINUTE : 0,
    pass?.subject === place.id ? pass.expiresAt : 0,
  );

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

/**
 * Places this process has read while they waited, for the line's polls (issue 24: every browser in
 * the line asks every few seconds). What a poll answers from a place never changes while it waits:
 * its drop, and its number once the draw gave it one. Its turn is told by the room's admitted count,
 * not by the row, and a turn goes to the API route, which reads the row afresh. A place without a
 * number is trusted only while the room is not drawn. Only rows the database holds are kept, and
 * the memo is emptied when full, so a stranger's made-up ids cannot grow it.
 */
const waitingPlaces = new WeakMap<AppContext, Map<string, PlaceRow & { dropAt: number }>>();
const WAITING_PLACES_KEPT = 100_000;

async function waitingPlace(ctx: AppContext, room: Room, placeId: string | null): Promise<PlaceRow | null> {
  if (!placeIdValid(placeId)) return null;
  let known = waitingPlaces.get(ctx);
  const hit = known?.get(placeId);
  // The drop compared as a number: its ISO key, made on every poll, was 2 % of one.
  if (hit && hit.dropAt === room.dropAt) {
    if (hit.place !== null || !room.drawn) return hit;
    await numbersDrawn(ctx, room, known!);
    const numbered = known!.get(placeId);
    if (numbered?.place != null && numbered.dropAt === room.dropAt) return numbered;
  }
  const row = await findPlace(ctx, ctx.db, room, placeId);
  if (row && row.admittedAt === null) {
    if (!known) waitingPlaces.set(ctx, (known = new Map()));
    if (known.size >= WAITING_PLACES_KEPT) known.clear();
    known.set(placeId, { ...row, dropAt: room.dropAt });
  }
  return row;
}

/**
 * After the draw every kept place lacks its number, and the whole line polls within one interval:
 * reading the drop's numbers (once a worker and drop) stands in for a read a visitor. Places
 * admitted meanwhile leave the memo: a turn is the API route's, read afresh.
 */
const numbering = new WeakMap<AppContext, { dropAt: number; done: Promise<void> }>();

/**
 * Numbers read a statement, in place order, with a turn of the event loop between statements: on
 * SQLite a read is synchronous, and one read of a 100,000 line held the worker for about 190 ms at
 * T-0, every request it had waiting with it.
 */
export const NUMBERS_PER_READ = 5_000;

function numbersDrawn(ctx: AppContext, room: Room, known: Map<string, PlaceRow & { dropAt: number }>): Promise<void> {
  const running = numbering.get(ctx);
  if (running?.dropAt === room.dropAt) return running.done;
  const done = readNumbers(ctx, room, known).catch(
    // A failed read leaves each visitor to its own, as before; the next drop tries again.
    (error: unknown) => logError("Reading the drawn places failed", error),
  );
  numbering.set(ctx, { dropAt: room.dropAt, done });
  return done;
}

async function readNumbers(ctx: AppContext, room: Room, known: Map<string, PlaceRow & { dropAt: number }>): Promise<void> {
  for (let after = 0; ;) {
    const rows = await numberedPlaces.all(ctx.db, { dropAt: dropKey(room), after, limit: NUMBERS_PER_READ });
    for (const row of rows) {
      const kept = known.get(row.id);
      if (kept?.dropAt !== room.dropAt) continue;
      if (row.admittedAt === null) known.set(row.id, { ...row, dropAt: room.dropAt });
      else known.delete(row.id);
    }
    if (rows.length < NUMBERS_PER_READ) return;
    after = rows[rows.length - 1]!.place!;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

// In place order from `after`: the (drop_at, place) unique index serves each read from where the
// last one ended.
const numberedPlaces = compiledOnce((db, $: { dropAt: string; after: number; limit: number }) =>
  db
    .selectFrom("waitingRoomPlaces")
    .select(["id", "place", "joinedAt", "admittedAt"])
    .where("dropAt", "=", $.dropAt)
    .where("place", ">", $.after)
    .orderBy("place")
    .limit($.limit),
);

async function findPlace(ctx: AppContext, db: Executor, room: Room, placeId: string | null | undefined): Promise<PlaceRow | null> {
  if (!placeIdValid(placeId)) return null;
  return (await placeById.first(db, { id: placeId, dropAt: dropKey(room) })) ?? null;
}

// Compiled once: each poll that reaches a worker which has not seen its place yet runs it.
const placeById = compiledOnce((db, $: { id: string; dropAt: string }) =>
  db
    .selectFrom("waitingRoomPlaces")
    .select(["id", "place", "joinedAt", "admittedAt"])
    .where("id", "=", $.id)
    .where("dropAt", "=", $.dropAt),
);

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
  let admittedAt = place.admittedAt;
  if (!admittedAt) {
    admittedAt = new Date(now).toISOString();
    await ctx.db.updateTable("waitingRoomPlaces").set({ admittedAt }).where("id", "=", place.id).where("admittedAt", "is", null).execute();
    place = { ...place, admittedAt };
  }
  const expiresAt = passUntilOf(room, place, pass);
  const token = signPass(ctx.config, { subject: place.id, admittedAt: Date.parse(admittedAt), expiresAt, dropAt: room.dropAt });
  return { status: { ...status, admittedUntil: new Date(expiresAt).toISOString() }, placeId: place.id, pass: { token, expiresAt } };
}

/**
 * Thousands poll, and nearly every answer is "still waiting": that one comes from the room this
 * process read within the last second and one primary-key read of the place, and writes nothing.
 * A turn, the draw and everything else are decided on the room read afresh (lineStatus), so the
 * cache can only delay a turn by up to a second (after a resume or a faster rate), never let anyone
 * in early. Null when the place is not simply waiting: lineStatus then decides.
 */
export async function waitingStatus(ctx: AppContext, placeId: string | null): Promise<PlaceStatus | null> {
  const now = ctx.clock.now().getTime();
  const cached = await cachedRoom(ctx);
  const quick = await waitingPlace(ctx, cached, placeId);
  if (!quick || quick.admittedAt !== null || !(cached.drawn || now < cached.dropAt)) return null;
  const status = statusOf(cached, quick, now, null);
  if (status.state === "before" || (status.state === "waiting" && status.position !== null))
    return { status, placeId: quick.id, pass: null };
  return null;
}

/**
 * GET /api/waiting-room and each refresh of the page: where this browser's place stands. Past a
 * place still waiting (waitingStatus), reads the row afresh (two primary-key reads and one for the
 * place); writes only at the draw and once when a place's turn comes.
 */
export async function lineStatus(ctx: AppContext, input: { placeId: string | null; passToken?: string | null }): Promise<PlaceStatus> {
  const waiting = await waitingStatus(ctx, input.placeId);
  if (waiting) return waiting;
  const now = ctx.clock.now().getTime();
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
  // Per network, as every per-address allowance: one /64 is one caller.
  const address = networkOf(input.address);
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
      let admitted = admittedCount(room, now);
      if (!room.paused && admitted > ceiling) {
        await trx
          .updateTable("waitingRoom")
          .set({ admittedBase: ceiling, admittedSince: new Date(now).toISOString() })
          .where("id", "=", 1)
          .execute();
        admitted = ceiling;
      }
      // The line is longest right after a join: the drop report keeps its peak (decision 0026).
      await recordLineLength(trx, dropKey(room), Math.max(0, place - Math.floor(admitted + 1e-9)), new Date(now).toISOString());
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
  return { token: signPass(ctx.config, { subject, admittedAt: now, expiresAt, dropAt: room.dropAt }), expiresAt };
}

/** The pass from a cookie when it is valid for the current drop, checked without the database (the room is cached). */
export function validPass(ctx: AppContext, room: Room, token: string | null | undefined): Pass | null {
  return readPass(ctx.config, token, ctx.clock.now().getTime(), room.dropAt);
}

/**
 * A pass renewed for `passMinutes` from now: a shopper in checkout is not sent back to the line
 * mid-payment. Never past admission + `passMinutes` + the hold time (decision 0036): enough to pay
 * for a bag held at the last moment, and then the pass runs out, however often it is renewed.
 */
export function renewedPass(ctx: AppContext, room: Room, pass: Pass): { token: string; expiresAt: number } {
  const cap = pass.admittedAt + (room.passMinutes + ctx.config.holdMinutes) * MINUTE;
  const expiresAt = Math.max(pass.expiresAt, Math.min(cap, ctx.clock.now().getTime() + room.passMinutes * MINUTE));
  return { token: signPass(ctx.config, { ...pass, expiresAt }), expiresAt };
}

/** The name a waiting-room pass is bound to a bag under (pass-bindings.ts): its drop and subject, whatever its expiry. */
export const waitingRoomPassKey = (pass: Pass) => `waiting-room:${pass.dropAt}:${pass.subject}`;

/**
 * Whether this browser may shop with the pass (decision 0036). A purchase with a bag binds an
 * unbound pass to it, and a pass bound to another bag counts for nothing. A purchase that starts
 * the browser's first bag (`newBag`) binds the pass if it is still free and goes on either way: an
 * empty new bag gains nothing, and the pass refuses it from its next purchase on.
 */
export async function passServesBag(
  ctx: AppContext,
  pass: Pass,
  bag: { id: string; isNew: boolean } | null,
  purchase: boolean,
): Promise<boolean> {
  const key = waitingRoomPassKey(pass);
  if (!purchase || bag === null) return passFreeFor(ctx, key, bag?.id ?? null);
  const bound = await bindPassToBag(ctx, key, bag.id);
  return bound || bag.isNew;
}

/** Seconds a refused buyer should wait before trying again: about one place's turn, at least 5 s. */
export function retryAfterSeconds(room: Room): number {
  return Math.max(5, Math.ceil(60 / Math.max(1, room.admitPerMinute)));
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

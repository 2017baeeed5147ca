import { waitingRoomPatchSchema, type WaitingRoomAdmin } from "#server/contracts/waiting-room";
import type { WaitingRoomTable } from "#db/schema";
import type { Selectable } from "kysely";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";
import {
  admittedCount,
  burstOf,
  drawIfDue,
  dropKey,
  ensureDrawn,
  forgetCachedRoom,
  isGated,
  lastPlace,
  MINUTE,
  phaseOf,
  readRoom,
  roomForWrite,
} from "./waiting-room-state";

type RoomRow = Selectable<WaitingRoomTable>;

/** The admin's side of the waiting room (decision 0019): the live figures and the settings. */

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
  forgetCachedRoom(ctx);
  return waitingRoomAdmin(ctx);
}

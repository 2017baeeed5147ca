import { z } from "zod";

export * from "./waiting-room-messages";

/**
 * The waiting room (issue 12 part 1, decision 0019): what the REST doors, tRPC and the pages say.
 * Client code may import this file: nothing server-only.
 */

export type WaitingRoomState = "closed" | "before" | "waiting" | "admitted";

/** GET and POST /api/waiting-room. `position` is the place drawn (or taken), `ahead` who is still waiting before it. */
export interface WaitingRoomStatus {
  state: WaitingRoomState;
  position: number | null;
  ahead: number | null;
  etaSeconds: number | null;
  /** ISO instant the pass runs out, when admitted. */
  admittedUntil: string | null;
}

export interface WaitingRoomSettings {
  enabled: boolean;
  opensMinutesBefore: number;
  closesMinutesAfter: number;
  admitPerMinute: number;
  paused: boolean;
  passMinutes: number;
  perAddress: number;
}

export interface WaitingRoomFigures {
  waiting: number;
  admitted: number;
  admittedLastMinute: number;
  medianWaitSeconds: number | null;
}

/** GET/PATCH /api/admin/waiting-room and the admin page: the settings and the live line. */
export interface WaitingRoomAdmin extends WaitingRoomSettings, WaitingRoomFigures {
  /** The countdown date the room is for (ISO). */
  dropAt: string;
  phase: "off" | "ended" | "closed" | "before" | "open";
  /** True once the admin ended the room for this drop. */
  ended: boolean;
}

const minutes = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a whole number.` })
    .int(`${label} must be a whole number.`)
    .min(0, `${label} cannot be negative.`)
    .max(max, `${label} can be at most ${max}.`);

/** The bounds of the room's numbers: the PATCH checks them, the admin page shows them inline. */
export const WAITING_ROOM_LIMITS = {
  opensMinutesBefore: { min: 0, max: 24 * 60 },
  closesMinutesAfter: { min: 0, max: 7 * 24 * 60 },
  admitPerMinute: { min: 1, max: 1_000_000 },
  passMinutes: { min: 1, max: 24 * 60 },
  perAddress: { min: 1, max: 1_000_000 },
} as const;
const L = WAITING_ROOM_LIMITS;

/** PATCH /api/admin/waiting-room: any of the settings, plus `ended` to end (or reopen) the room for this drop. */
export const waitingRoomPatchSchema = z
  .object({
    enabled: z.boolean({ error: "enabled must be true or false." }),
    opensMinutesBefore: minutes("opensMinutesBefore", L.opensMinutesBefore.max),
    closesMinutesAfter: minutes("closesMinutesAfter", L.closesMinutesAfter.max),
    admitPerMinute: minutes("admitPerMinute", L.admitPerMinute.max).min(1, "admitPerMinute must be at least 1."),
    paused: z.boolean({ error: "paused must be true or false." }),
    passMinutes: minutes("passMinutes", L.passMinutes.max).min(1, "passMinutes must be at least 1."),
    perAddress: minutes("perAddress", L.perAddress.max).min(1, "perAddress must be at least 1."),
    ended: z.boolean({ error: "ended must be true or false." }),
  })
  .partial()
  .strict();

export type WaitingRoomPatch = z.infer<typeof waitingRoomPatchSchema>;

/** What is wrong with a number typed on the admin's drop page, in words, or null when it is fine. */
export function roomNumberProblem(text: string, name: keyof typeof WAITING_ROOM_LIMITS): string | null {
  const { min, max } = WAITING_ROOM_LIMITS[name];
  const value = text.trim();
  if (value === "") return "Enter a number.";
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) return `Enter a whole number from ${min} to ${max.toLocaleString("en-US")}.`;
  return null;
}

import { z } from "zod";

/**
 * The waiting room (issue 12 part 1, decision 0019): what the REST doors, tRPC and the pages say.
 * Client code may import this file: nothing server-only.
 */

export const WAITING_ROOM_URL = "/waiting-room";

export const WAITING_ROOM_MESSAGES = {
  busy: "The drop is busy. Please join the line.",
  tooManyPlaces: "Too many places in line from your network. Please use the place you already have.",
  notOpen: "There is no line right now: the store is open.",
  equalChance: "Everyone who is here now has an equal chance: places are drawn at random when the drop starts.",
  yourTurn: "It's your turn",
  paused: "The line is paused for a moment. You keep your place.",
} as const;

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

/** PATCH /api/admin/waiting-room: any of the settings, plus `ended` to end (or reopen) the room for this drop. */
export const waitingRoomPatchSchema = z
  .object({
    enabled: z.boolean({ error: "enabled must be true or false." }),
    opensMinutesBefore: minutes("opensMinutesBefore", 24 * 60),
    closesMinutesAfter: minutes("closesMinutesAfter", 7 * 24 * 60),
    admitPerMinute: minutes("admitPerMinute", 1_000_000).min(1, "admitPerMinute must be at least 1."),
    paused: z.boolean({ error: "paused must be true or false." }),
    passMinutes: minutes("passMinutes", 24 * 60).min(1, "passMinutes must be at least 1."),
    perAddress: minutes("perAddress", 1_000_000).min(1, "perAddress must be at least 1."),
    ended: z.boolean({ error: "ended must be true or false." }),
  })
  .partial()
  .strict();

export type WaitingRoomPatch = z.infer<typeof waitingRoomPatchSchema>;

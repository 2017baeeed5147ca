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

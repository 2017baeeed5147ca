/* The waiting room's address and texts without zod, for the browser (decision 0029); waiting-room.ts re-exports them. */
export const WAITING_ROOM_URL = "/waiting-room";

export const WAITING_ROOM_MESSAGES = {
  busy: "The drop is busy. Please join the line.",
  tooManyPlaces: "Too many places in line from your network. Please use the place you already have.",
  notOpen: "There is no line right now: the store is open.",
  equalChance: "Everyone who is here now has an equal chance: places are drawn at random when the drop starts.",
  yourTurn: "It's your turn",
  paused: "The line is paused for a moment. You keep your place.",
} as const;

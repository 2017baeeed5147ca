import { DEFAULT_CLAIM_MINUTES, type AdminDrawDetail, type AdminDrawListItem } from "./draws";
import { storeWallClockToUtc } from "./store-time";

/**
 * The admin Draws tab (issue 26, decision 0047): the create form as a browser posts it, with or
 * without JavaScript, turned into what POST /api/admin/draws takes. Total: never throws.
 */

export const ADMIN_DRAW_MESSAGES = {
  product: "Choose a product.",
  openAt: "Choose when entries open (date and time, New York time).",
  closeAt: "Choose when entries close (date and time, New York time).",
  claimMinutes: "Claim minutes must be a whole number from 1 to 10080.",
  units: "Units: leave blank for the product's stock, or give a number, or sizes as S=2, M=3.",
  created: (name: string) => `Draw created for ${name}.`,
  drawn: (name: string) => `The draw for ${name} has been made.`,
  deleted: "Draw deleted.",
} as const;

/** A product the admin may create a draw for (one without a draw). */
export interface DrawableProduct {
  id: number;
  name: string;
  inventory: number;
  sizes: { label: string; inventory: number }[];
}

export interface AdminDrawsView {
  draws: AdminDrawListItem[];
  products: DrawableProduct[];
}

/** /admin/draws/{id}: one draw's detail and the store's clock, against which claims expire. */
export interface AdminDrawView {
  draw: AdminDrawDetail;
  now: string;
}

export type WinnerState = "emailed" | "claimed" | "paid" | "expired" | "passedOn";

export const WINNER_STATE_LABELS: Record<WinnerState, string> = {
  emailed: "Claim e-mailed",
  claimed: "Claimed, not paid",
  paid: "Paid",
  expired: "Expired",
  passedOn: "Expired, passed on",
};

type Winner = AdminDrawDetail["winners"][number];

/**
 * Where a winner's claim stands: paid; lapsed (passed on when a later winner of the same size
 * took the unit); claimed (the link taken, not yet paid); else e-mailed, or expired once its time
 * is up, before the sweeper lapses it.
 */
export function winnerStateOf(winner: Winner, winners: Winner[], now: string): WinnerState {
  if (winner.paidAt) return "paid";
  if (winner.lapsedAt) {
    return winners.some((w) => w.size === winner.size && w.place > winner.place) ? "passedOn" : "expired";
  }
  // A taken link may still have an order holding the unit past the claim's end: the sweeper decides.
  if (winner.claimedAt) return "claimed";
  return winner.claimExpiresAt !== null && winner.claimExpiresAt <= now ? "expired" : "emailed";
}

export type AdminDrawsActionData = {
  intent: string;
  ok: boolean;
  message: string;
  fields: Record<string, string[]>;
};

/** "" → undefined (the product's stock); "5" → 5; "S=2, M=3" → { S: 2, M: 3 }; anything else null. */
export function parseUnitsText(text: string): number | Record<string, number> | undefined | null {
  const trimmed = text.trim();
  if (trimmed === "") return undefined;
  if (trimmed.length > 1000) return null;
  if (/^\d{1,6}$/.test(trimmed)) return Number(trimmed);
  const units: Record<string, number> = {};
  for (const part of trimmed.split(",")) {
    const match = /^\s*([^=,]{1,40}?)\s*[=:]\s*(\d{1,6})\s*$/.exec(part);
    if (!match || Object.hasOwn(units, match[1]!)) return null;
    units[match[1]!] = Number(match[2]);
  }
  return Object.keys(units).length <= 50 ? units : null;
}

/** A `datetime-local` value ("2026-07-04T18:30"), New York wall-clock, as an ISO instant; null if none. */
export function storeDateTimeToIso(value: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d{1,3})?)?$/.exec(value.trim());
  if (!match) return null;
  return storeWallClockToUtc(match[1]!, match[2]!)?.toISOString() ?? null;
}

/**
 * The create form → the REST body, or the fields that are wrong (messages for the form). What
 * the REST schema then checks (close after open, bounds) it still checks.
 */
export function drawFormToBody(form: Record<string, string>): { body: Record<string, unknown> } | { fields: Record<string, string[]> } {
  const fields: Record<string, string[]> = {};
  const productId = /^[1-9]\d{0,14}$/.test(form.productId ?? "") ? Number(form.productId) : null;
  if (productId === null) fields.productId = [ADMIN_DRAW_MESSAGES.product];
  const entriesOpenAt = storeDateTimeToIso(form.entriesOpenAt ?? "");
  if (!entriesOpenAt) fields.entriesOpenAt = [ADMIN_DRAW_MESSAGES.openAt];
  const entriesCloseAt = storeDateTimeToIso(form.entriesCloseAt ?? "");
  if (!entriesCloseAt) fields.entriesCloseAt = [ADMIN_DRAW_MESSAGES.closeAt];
  const minutesText = (form.claimMinutes ?? "").trim();
  const claimMinutes = minutesText === "" ? DEFAULT_CLAIM_MINUTES : /^\d{1,6}$/.test(minutesText) ? Number(minutesText) : null;
  if (claimMinutes === null) fields.claimMinutes = [ADMIN_DRAW_MESSAGES.claimMinutes];
  const units = parseUnitsText(form.units ?? "");
  if (units === null) fields.units = [ADMIN_DRAW_MESSAGES.units];
  if (Object.keys(fields).length > 0) return { fields };
  return { body: { productId, entriesOpenAt, entriesCloseAt, claimMinutes, ...(units === undefined ? {} : { units }) } };
}

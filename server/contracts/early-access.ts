import { z } from "zod";
import { rowId } from "./row-id";

/** Issue 12 part 2 (decision 0020): signed, single-use, revocable early-access links. */
export const EARLY_ACCESS_MESSAGES = {
  used: "This early-access link has already been used.",
  invalid: "This early-access link is not valid.",
  revoked: "This early-access link has been revoked.",
  tooEarly: (opensAt: string) => `This early-access link works from ${opensAt}.`,
  notSubscriber: "No subscriber has this e-mail address.",
  notFound: "Early-access link not found.",
  minutes: "Early access must be a whole number of minutes from 1 to 1440.",
  email: "Please enter a valid email address",
} as const;

/** The merge tag a campaign's HTML may carry: each recipient gets their own link there. */
export const EARLY_ACCESS_TAG = "{{early_access_link}}";

export const DEFAULT_EARLY_MINUTES = 30;

/** POST /api/admin/early-access. */
export const earlyAccessCreateSchema = z.object({
  email: z.string({ error: EARLY_ACCESS_MESSAGES.email }).trim().toLowerCase().email(EARLY_ACCESS_MESSAGES.email).max(254),
});

/** POST /api/admin/early-access/settings. */
export const earlyMinutesSchema = z.object({
  earlyMinutes: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z
      .number({ error: EARLY_ACCESS_MESSAGES.minutes })
      .int(EARLY_ACCESS_MESSAGES.minutes)
      .min(1, EARLY_ACCESS_MESSAGES.minutes)
      .max(1440, EARLY_ACCESS_MESSAGES.minutes),
  ),
});

export const earlyAccessIdSchema = z.object({ id: rowId() });

export type EarlyAccessStatus = "unused" | "used" | "revoked";

/** One link as the admin sees it. */
export interface EarlyAccessLinkView {
  id: number;
  email: string;
  campaignId: number | null;
  createdAt: string;
  openedAt: string | null;
  revokedAt: string | null;
  status: EarlyAccessStatus;
}

export interface EarlyAccessOverview {
  earlyMinutes: number;
  links: EarlyAccessLinkView[];
}

/** What opening a link tells the visitor. */
export type EarlyAccessLanding =
  { kind: "ready"; releaseAt: string } | { kind: "tooEarly"; message: string } | { kind: "refused"; message: string };

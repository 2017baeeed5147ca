import { z } from "zod";
import { emailField } from "./subscribe";
import { rowId } from "./row-id";

/** Issue 26 (decision 0047): a product sold by a verifiable draw. */
export const DRAW_MESSAGES = {
  soldByDraw: (productName: string) => `${productName} is sold by draw.`,
  entered: "Check your e-mail to confirm your entry.",
  notFound: "Draw not found.",
  productNotFound: "Product not found.",
  alreadySet: "This product already has a draw.",
  closeAfterOpen: "Entries must close after they open.",
  openInFuture: "Entries must open in the future.",
  notOpen: "Entries for this draw are not open.",
  notClosed: "Entries are still open: the draw can be made after they close.",
  alreadyDrawn: "This draw has been drawn.",
  startedCannotDelete: "Entries have opened: this draw can no longer be deleted.",
  size: "Please choose a size.",
  units: "Units must be whole numbers from 0, for the product's sizes.",
  noProof: "The proof is published once the draw is made.",
  confirmInvalid: "This confirmation link is not valid.",
  confirmClosed: "Entries for this draw have closed: this entry was not confirmed in time.",
  claimInvalid: "This link to buy is not valid.",
  claimUsed: "This link to buy has already been opened in another browser.",
  claimExpired: "The time to buy with this link has run out.",
  claimPaid: "This unit has been bought.",
  notAWinner: (productName: string) => `Only a winner of the draw can buy ${productName}.`,
  tooMany: (minutes: number) => `Too many entries from your network. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
} as const;

/** The merge tag a campaign's HTML may carry: the open draw's page. */
export const DRAW_TAG = "{{draw_link}}";

export const DEFAULT_CLAIM_MINUTES = 1440;

/** An instant with an explicit zone ("…Z" or "…-04:00"), kept as ISO UTC. */
const instant = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(40, `${label} must be an ISO date-time with a time zone`)
    .refine(
      (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && Number.isFinite(Date.parse(v)),
      `${label} must be an ISO date-time with a time zone (e.g. 2026-07-04T04:00:00.000Z)`,
    )
    .transform((v) => new Date(v).toISOString());

const unitCount = z
  .number({ error: DRAW_MESSAGES.units })
  .int(DRAW_MESSAGES.units)
  .min(0, DRAW_MESSAGES.units)
  .max(100_000, DRAW_MESSAGES.units);

/** POST /api/admin/draws. `units`: a number (a product without sizes) or units per size label. */
export const drawCreateSchema = z
  .object({
    productId: rowId(DRAW_MESSAGES.productNotFound),
    entriesOpenAt: instant("Entries open at"),
    entriesCloseAt: instant("Entries close at"),
    claimMinutes: z
      .number({ error: "Claim minutes must be a whole number from 1 to 10080." })
      .int("Claim minutes must be a whole number from 1 to 10080.")
      .min(1, "Claim minutes must be a whole number from 1 to 10080.")
      .max(10_080, "Claim minutes must be a whole number from 1 to 10080.")
      .default(DEFAULT_CLAIM_MINUTES),
    units: z
      .union([unitCount, z.record(z.string().max(40), unitCount).refine((r) => Object.keys(r).length <= 50, DRAW_MESSAGES.units)])
      .optional(),
  })
  .refine((v) => Date.parse(v.entriesCloseAt) > Date.parse(v.entriesOpenAt), {
    message: DRAW_MESSAGES.closeAfterOpen,
    path: ["entriesCloseAt"],
  });
export type DrawCreateInput = z.output<typeof drawCreateSchema>;

/** POST /api/admin/draws/{id}/draw: a public randomness value published after the close. */
export const drawBeaconSchema = z
  .object({ beacon: z.string().trim().max(200, "The beacon must be at most 200 characters.").optional() })
  .transform((v) => ({ beacon: v.beacon ?? "" }));

/** POST /api/draws/{id}/entries (and the product page's form). `website` is the honeypot. */
export const drawEntrySchema = z.object({
  email: emailField,
  size: z.string().trim().max(40, DRAW_MESSAGES.size).optional().default(""),
  name: z
    .string()
    .trim()
    .max(100, "Name must be at most 100 characters.")
    .optional()
    .transform((v) => (v ? v : null)),
  website: z.unknown().optional(),
});
export type DrawEntryInput = z.output<typeof drawEntrySchema>;

export type DrawState = "upcoming" | "open" | "closed" | "drawn";

/** GET /api/draws/{id}. */
export interface PublicDraw {
  id: number;
  product: { id: number; name: string };
  state: DrawState;
  entriesOpenAt: string;
  entriesCloseAt: string;
  commitment: string;
  entryCount: number;
  chain: string;
  /** The sizes one may enter for; [] for a product without sizes. */
  sizes: string[];
}

/** The confirm page: one entry and, once confirmed, its receipt. */
export interface DrawEntryView {
  drawId: number;
  productName: string;
  email: string;
  size: string;
  state: DrawState;
  confirmed: boolean;
  receipt: { n: number; emailHash: string; chain: string; commitment: string } | null;
}

/** The claim page. */
export type DrawClaimView =
  | { kind: "ready"; drawId: number; productId: number; productName: string; size: string; claimExpiresAt: string }
  | { kind: "refused"; message: string };

export interface AdminDrawSummary {
  id: number;
  product: { id: number; name: string };
  state: DrawState;
  entriesOpenAt: string;
  entriesCloseAt: string;
  claimMinutes: number;
  units: Record<string, number>;
  commitment: string;
  chain: string;
  entries: number;
  confirmed: number;
  drawnAt: string | null;
  beacon: string | null;
}

/** One size of a draw: the units to give, the entries, and how the winners of that size fared. */
export interface AdminDrawSizeCount {
  size: string;
  units: number;
  entries: number;
  confirmed: number;
  winners: number;
  claimed: number;
  paid: number;
}

/** A row of the admin Draws tab: the summary and its counts per size. */
export interface AdminDrawListItem extends AdminDrawSummary {
  perSize: AdminDrawSizeCount[];
}

export interface AdminDrawDetail extends AdminDrawSummary {
  perSize: AdminDrawSizeCount[];
  winners: {
    n: number;
    email: string;
    size: string;
    place: number;
    wonAt: string;
    claimExpiresAt: string | null;
    claimedAt: string | null;
    paidAt: string | null;
    lapsedAt: string | null;
  }[];
  /** Per size, the furthest place in the drawn order the units have reached (0 before the draw). */
  waitlistReached: Record<string, number>;
}

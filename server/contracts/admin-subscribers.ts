import { z } from "zod";
import { rowId } from "./row-id";

/**
 * The subscriber area's contract: the compose schema shared by the form, tRPC and REST, the
 * spec's exact texts, and the shapes the admin widgets read. Safe for client code to import.
 */
export const COMPOSE_MISSING = "Please provide both subject and content for your email";
export const SUBJECT_MAX = 200;
/** Far under Postmark's 10 MB message limit, far over any real announcement. */
export const CONTENT_MAX = 500_000;

export const composeEmailSchema = z.object({
  subject: z
    .string({ error: COMPOSE_MISSING })
    .trim()
    .min(1, COMPOSE_MISSING)
    .max(SUBJECT_MAX, `The subject must be at most ${SUBJECT_MAX} characters`),
  htmlContent: z.string({ error: COMPOSE_MISSING }).trim().min(1, COMPOSE_MISSING).max(CONTENT_MAX, "The content is too long"),
});
export type ComposeEmailInput = z.infer<typeof composeEmailSchema>;

/** What the preview renders: anything, even half-written, within the same size limits. */
export const previewEmailSchema = z.object({
  subject: z.string().max(SUBJECT_MAX, `The subject must be at most ${SUBJECT_MAX} characters`),
  htmlContent: z.string().max(CONTENT_MAX, "The content is too long"),
});

export const campaignIdSchema = z.object({ id: rowId() });

/** Loading the template sets this subject (docs/spec.md §4). */
export const TEMPLATE_SUBJECT = "Product Launch Updates";

/** docs/spec.md §2 and §8, word for word. */
export const SUBSCRIBER_TEXTS = {
  empty: "No subscribers yet. The list will update as people sign up.",
  loadError: "Error Loading Subscribers",
  tryAgain: "Try Again",
  refreshed: "Refreshed",
  refreshFailed: "Refresh Failed",
  exported: "Export Successful",
  exportFailed: "Export Failed",
  templateFailed: "Failed to Load Template",
  sent: "Email Sent",
  sendFailed: "Email Failed",
} as const;

export interface SubscriberRow {
  id: number;
  email: string;
  subscribedAt: string;
}

/** One page of the active list. `count` is every active subscriber (docs/spec.md §7), not this page's rows. */
export interface SubscriberList {
  subscribers: SubscriberRow[];
  count: number;
  page: number;
  pageSize: number;
  /** How many pages `count` fills at `pageSize`; 1 for an empty list, so there is always a page 1. */
  pages: number;
}

export const SUBSCRIBER_PAGE_SIZE = 100;
export const SUBSCRIBER_PAGE_SIZE_MAX = 500;
export const PAGE_INVALID = "The page must be a whole number of 1 or more.";
export const PAGE_SIZE_INVALID = `The page size must be a whole number from 1 to ${SUBSCRIBER_PAGE_SIZE_MAX}.`;

/**
 * A whole number from a query string ("2") or JSON (2). A missing or empty value takes the
 * default; anything else that is not a whole number in range fails with `message` alone.
 */
const wholeNumber = (message: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (value) => {
      if (value === null) return undefined;
      if (typeof value !== "string") return value;
      const text = value.trim();
      if (text === "") return undefined;
      return /^[+-]?\d+$/.test(text) ? Number(text) : value;
    },
    z
      .number({ error: message })
      .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max, { error: message })
      .default(fallback),
  );

/**
 * Which page of the subscriber list: `page` from 1 (default 1), `pageSize` 1..500 (default 100).
 * Shared by REST (`?page=2&pageSize=50`), tRPC and the admin pages; the service parses with it.
 */
export const subscriberPageSchema = z
  .object(
    {
      page: wholeNumber(PAGE_INVALID, 1, Number.MAX_SAFE_INTEGER, 1),
      pageSize: wholeNumber(PAGE_SIZE_INVALID, 1, SUBSCRIBER_PAGE_SIZE_MAX, SUBSCRIBER_PAGE_SIZE),
    },
    { error: "The list query must be an object with page and pageSize." },
  )
  // Nothing at all (no query string, a tRPC call without input) is page 1 of 100.
  .prefault({});

/** What callers may send: either field may be left out, or be a query-string value. */
export interface SubscriberPageQuery {
  page?: number | string | null;
  pageSize?: number | string | null;
}

/** The page a `?page=` in an admin page's URL asks for; anything unusable is page 1. */
export function pageFromSearch(value: string | null | undefined): number {
  const text = value?.trim() ?? "";
  const page = /^\d+$/.test(text) ? Number(text) : NaN;
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

export interface ExportResult {
  count: number;
  filename: string;
  downloadUrl: string;
}

export type CampaignState = "queued" | "sending" | "sent" | "partial";

/** A send and how far it got: what the compose tab polls while a large list is mailed. */
export interface CampaignProgress {
  id: number;
  subject: string;
  status: CampaignState;
  total: number;
  sent: number;
  failed: number;
  /** Subscribers who unsubscribed after the send began, before their message went out. */
  skipped: number;
  pending: number;
  createdAt: string;
  finishedAt: string | null;
  /** The admin who sent it. */
  createdBy: string | null;
  /** Why the last attempt stopped early, when it did. */
  lastError: string | null;
}

/** The answer of a send or a resume: the spec's `{ message }`, plus the campaign to follow. */
export interface SendResult {
  message: string;
  campaignId: number;
  status: CampaignState;
}

const n = (count: number) => count.toLocaleString("en-US");

export const sentMessage = (count: number) => `Email sent to ${n(count)} subscriber${count === 1 ? "" : "s"}`;

/** How a finished run went, in words: the REST `{ message }` and the compose tab's toast. */
export function outcomeMessage(p: Pick<CampaignProgress, "status" | "sent" | "pending" | "failed" | "lastError">): string {
  if (p.status === "sent") return sentMessage(p.sent);
  const left = p.pending + p.failed;
  const reason = p.lastError ? ` (${p.lastError})` : "";
  return `Email sent to ${n(p.sent)} of ${n(p.sent + left)} subscribers; ${n(left)} not sent yet${reason}. Resume the send to reach the rest.`;
}

import { z } from "zod";

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
  htmlContent: z
    .string({ error: COMPOSE_MISSING })
    .trim()
    .min(1, COMPOSE_MISSING)
    .max(CONTENT_MAX, "The content is too long"),
});
export type ComposeEmailInput = z.infer<typeof composeEmailSchema>;

/** What the preview renders: anything, even half-written, within the same size limits. */
export const previewEmailSchema = z.object({
  subject: z.string().max(SUBJECT_MAX, `The subject must be at most ${SUBJECT_MAX} characters`),
  htmlContent: z.string().max(CONTENT_MAX, "The content is too long"),
});

export const campaignIdSchema = z.object({ id: z.number().int().positive() });

/** Loading the template sets this subject (spec §4). */
export const TEMPLATE_SUBJECT = "Product Launch Updates";

/** Spec §2 and §8, word for word. */
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

export interface SubscriberList {
  subscribers: SubscriberRow[];
  count: number;
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

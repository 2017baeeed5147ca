import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";

/** Addresses are trimmed and lower-cased, so one person cannot subscribe twice. */
export const emailField = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Please enter a valid email address")
  .toLowerCase()
  .pipe(z.email("Please enter a valid email address"));

export const subscribeSchema = z.object({ email: emailField });
export type SubscribeInput = z.infer<typeof subscribeSchema>;

export const SUBSCRIBE_MESSAGES = {
  successTitle: "Welcome to the legacy.",
  successDescription: (brand: string) => `You'll be notified the moment the ${brand} drop happens.`,
  failureTitle: "Error",
  failure: "Failed to subscribe. Please try again.",
  alreadySubscribed: "This email is already subscribed.",
} as const;

export { HONEYPOT_FIELD } from "./honeypot";

/** What the sign-up card's form action answers, on every page that shows the card. */
export interface SubscribeActionData {
  intent: "subscribe";
  lastResult: SubmissionResult<string[]>;
  /** What the card shows inline (and the toast says): always the spec's texts. */
  notice: { kind: "success" | "error"; title: string; description: string } | null;
}

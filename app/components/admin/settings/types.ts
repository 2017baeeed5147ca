import type { SubmissionResult } from "@conform-to/react";
import type { Notice } from "~/lib/use-notice-toast";
import type { ShippingTestResult } from "../../../../server/contracts/admin-settings";

/** The App Settings tab's forms, one intent each; the texts use their setting key. */
export type SettingsIntent =
  | "countdown-date"
  | "background-video"
  | "background-music"
  | "countdown_text"
  | "homepage_tagline"
  | "homepage_subtitle";

/** What the App Settings action answers: conform's reply for the form, and the toast. */
export interface SettingsActionData {
  intent: SettingsIntent;
  lastResult: SubmissionResult<string[]>;
  notice: Notice | null;
}

export type AccountActionData =
  | { intent: "change-password"; lastResult: SubmissionResult<string[]>; notice: Notice | null }
  | { intent: "test-shipping"; result: ShippingTestResult | null; notice: Notice | null };

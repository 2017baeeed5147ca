import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";
import type { Notice } from "./layout";
import { SKIPPED_TIME_MESSAGE } from "./store-time";
import type { OrderEmailKind } from "./order-emails";

/**
 * App settings and account contracts (docs/spec.md §5 "Change password", "Countdown date form", "Media and
 * text settings"; §8 "Admin app settings"). Shared by the forms, tRPC and the REST doors, so every
 * door answers with the spec's exact words. Client code may import this file: nothing server-only.
 */

/** docs/spec.md §9: 50MB for video and audio. "Less than 50MB" is read as at most 50 MiB. */
export const MEDIA_MAX_BYTES = 50 * 1024 * 1024;

export const COUNTDOWN_MESSAGES = {
  dateRequired: "A date is required.",
  dateInvalid: "Please choose a valid date.",
  datePast: "Please choose today or a later date.",
  timeFormat: "Time must be in the format HH:MM (24-hour format)",
  timeSkipped: SKIPPED_TIME_MESSAGE,
  instantInvalid: "The value must be an ISO 8601 date-time with a time zone, for example 2026-07-04T04:00:00.000Z.",
  updated: "Countdown Date Updated",
  failed: "Failed to Update Countdown Date",
} as const;

export type MediaKind = "video" | "audio";

/** Everything the video and audio settings say, by kind (docs/spec.md §5 and §8). */
export const MEDIA_MESSAGES = {
  video: {
    field: "video",
    wrongTypeTitle: "Invalid File Type",
    wrongType: "Please select a video file.",
    tooLargeTitle: "File Too Large",
    tooLarge: "Video size should be less than 50MB.",
    uploaded: "Video Uploaded",
    uploadFailedTitle: "Video Upload Failed",
    uploadFailed: "Failed to upload video",
    uploadError: "An error occurred while uploading the video",
    urlRequiredTitle: "URL Required",
    urlInvalid: "Please enter a valid video URL.",
    updated: "Background Video Updated",
    failed: "Failed to Update Background Video",
  },
  audio: {
    field: "audio",
    wrongTypeTitle: "Invalid File Type",
    wrongType: "Please select an audio file.",
    tooLargeTitle: "File Too Large",
    tooLarge: "Audio size should be less than 50MB.",
    uploaded: "Audio Uploaded",
    uploadFailedTitle: "Audio Upload Failed",
    uploadFailed: "Failed to upload audio",
    uploadError: "An error occurred while uploading the audio",
    urlRequiredTitle: "URL Required",
    urlInvalid: "Please enter a valid music URL.",
    updated: "Background Music Updated",
    failed: "Failed to Update Background Music",
  },
} as const satisfies Record<MediaKind, Record<string, string>>;

export const TEXT_SETTING_KEYS = ["countdown_text", "homepage_tagline", "homepage_subtitle"] as const;
export type TextSettingKey = (typeof TEXT_SETTING_KEYS)[number];

export const TEXT_SETTINGS = {
  countdown_text: {
    label: "Countdown Text",
    required: "Please enter countdown text.",
    max: 2000,
    updated: "Countdown Text Updated",
    failed: "Failed to Update Countdown Text",
  },
  homepage_tagline: {
    label: "Homepage Tagline",
    required: "Please enter homepage tagline text.",
    max: 200,
    updated: "Homepage Tagline Updated",
    failed: "Failed to Update Homepage Tagline",
  },
  homepage_subtitle: {
    label: "Homepage Subtitle",
    required: "Please enter homepage subtitle text.",
    max: 300,
    updated: "Homepage Subtitle Updated",
    failed: "Failed to Update Homepage Subtitle",
  },
} as const satisfies Record<TextSettingKey, { label: string; required: string; max: number; updated: string; failed: string }>;

export const TEXT_REQUIRED_TITLE = "Text Required";
export const SETTINGS_LOAD_FAILED = { title: "Error", description: "Failed to load settings. Please try again later." } as const;

/** The countdown form: an Eastern wall-clock day and 24-hour time. */
export const countdownDateSchema = z.object({
  date: z
    .string({ error: COUNTDOWN_MESSAGES.dateRequired })
    .trim()
    // abort: an empty date is only "required", not also "invalid".
    .min(1, { error: COUNTDOWN_MESSAGES.dateRequired, abort: true })
    .regex(/^\d{4}-\d{2}-\d{2}$/, COUNTDOWN_MESSAGES.dateInvalid),
  time: z
    .string({ error: COUNTDOWN_MESSAGES.timeFormat })
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, COUNTDOWN_MESSAGES.timeFormat),
});
export type CountdownDateInput = z.infer<typeof countdownDateSchema>;

/** docs/spec.md §7 POST /api/admin/settings {key, value}. Each key then gets its own rules. */
export const SETTING_KEY_NAMES = ["countdown_date", "background_video", "background_music", ...TEXT_SETTING_KEYS] as const;
export const settingUpdateSchema = z.object({
  key: z.enum(SETTING_KEY_NAMES, { error: `The key must be one of ${SETTING_KEY_NAMES.join(", ")}.` }),
  value: z.string({ error: "A value is required." }),
});

/** An http(s) address, or a path on this site (an upload, /media/...), never protocol-relative. */
export function isMediaUrl(value: string): boolean {
  if (/\s|\\/.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

// One check, so an empty value gets the message once.
const mediaUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((value) => value.length <= 2048 && isMediaUrl(value), message);

export const videoUrlSchema = z.object({ videoUrl: mediaUrl(MEDIA_MESSAGES.video.urlInvalid) });
export const musicUrlSchema = z.object({ musicUrl: mediaUrl(MEDIA_MESSAGES.audio.urlInvalid) });

const textSchemas = Object.fromEntries(
  TEXT_SETTING_KEYS.map((key) => {
    const { required, max, label } = TEXT_SETTINGS[key];
    const text = z
      .string({ error: required })
      .trim()
      .min(1, required)
      .max(max, `${label} must be at most ${max.toLocaleString("en-US")} characters.`);
    return [key, z.object({ text })];
  }),
) as Record<TextSettingKey, z.ZodObject<{ text: z.ZodString }>>;

/** `{text}` for one of the three text settings, with that setting's own "required" message. */
export function textSchemaFor(key: TextSettingKey) {
  return textSchemas[key];
}

export const PASSWORD_MESSAGES = {
  currentRequired: "Current password is required",
  currentIncorrect: "Current password is incorrect",
  newTooShort: "New password must be at least 6 characters",
  newTooLong: "New password must be at most 256 characters",
  confirmRequired: "Please confirm your new password",
  mismatch: "Passwords don't match",
  updated: "Password updated",
  updatedDescription: "Your password has been changed. Any other signed-in sessions were signed out.",
  failed: "Error changing password",
} as const;

const passwordFields = {
  currentPassword: z
    .string({ error: PASSWORD_MESSAGES.currentRequired })
    .min(1, PASSWORD_MESSAGES.currentRequired)
    .max(256, PASSWORD_MESSAGES.currentIncorrect),
  newPassword: z
    .string({ error: PASSWORD_MESSAGES.newTooShort })
    .min(6, PASSWORD_MESSAGES.newTooShort)
    .max(256, PASSWORD_MESSAGES.newTooLong),
};

/** The account form: the confirmation is required and must match (shown on its own field). */
export const changePasswordSchema = z
  .object({
    ...passwordFields,
    confirmPassword: z.string({ error: PASSWORD_MESSAGES.confirmRequired }).min(1, PASSWORD_MESSAGES.confirmRequired),
  })
  .refine((v) => v.confirmPassword === v.newPassword, { message: PASSWORD_MESSAGES.mismatch, path: ["confirmPassword"] });
export type ChangePasswordFormInput = z.infer<typeof changePasswordSchema>;

/** docs/spec.md §7 POST /api/admin/change-password sends {currentPassword, newPassword}: a confirmation is optional there. */
export const changePasswordApiSchema = z
  .object({ ...passwordFields, confirmPassword: z.string().optional() })
  .refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
    message: PASSWORD_MESSAGES.mismatch,
    path: ["confirmPassword"],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordApiSchema>;

export const SHIPPING_TEST_MESSAGES = { failed: "Shipping Test Failed", succeeded: "Shipping Test Succeeded" } as const;

/** What the App Settings tab reads (tRPC admin.settings.get and the page loader). */
export interface AdminSettingsView {
  /** Which of the buyer's e-mails on the way are sent (issue 25). */
  orderEmails: Record<OrderEmailKind, boolean>;
  /** Who the operational alerts go to (issue 27): the list set here, else the admin address. */
  alertRecipients: string[];
  timeZone: string;
  /** Today in Eastern Time, yyyy-MM-dd: the first day the countdown form accepts. */
  today: string;
  countdown: {
    value: string;
    updatedAt: string | null;
    /** The target as Eastern wall-clock: the form's defaults. */
    date: string;
    time: string;
    /** "Saturday, July 4, 2026 at 12:00 AM EDT" */
    label: string;
    passed: boolean;
  };
  backgroundVideo: string;
  backgroundMusic: string;
  texts: Record<TextSettingKey, string>;
}

/** What the admin's shipping test reports: the label it bought for the test parcel. */
export interface ShippingTestResult {
  message: string;
  details: { trackingNumber: string; carrier: string; cost: number; labelUrl: string };
}

/** The App Settings tab's forms, one intent each; the texts use their setting key. */
export type SettingsIntent =
  | "countdown-date"
  | "background-video"
  | "background-music"
  | "countdown_text"
  | "homepage_tagline"
  | "homepage_subtitle"
  | "order-emails"
  | "alert-recipients";

/** What the App Settings action answers: conform's reply for the form, and the toast. */
export interface SettingsActionData {
  intent: SettingsIntent;
  lastResult: SubmissionResult<string[]>;
  notice: Notice | null;
}

/** What the Account tab's action answers: the password form's reply, or the shipping test's label. */
export type AccountActionData =
  | { intent: "change-password"; lastResult: SubmissionResult<string[]>; notice: Notice | null }
  | { intent: "test-shipping"; result: ShippingTestResult | null; notice: Notice | null };

/** The alert recipients form (issue 27). */
export const ALERT_RECIPIENT_MESSAGES = {
  updated: "Alert Recipients Updated",
  failed: "Failed to Update Alert Recipients",
} as const;

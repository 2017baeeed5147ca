import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import {
  ALERT_RECIPIENT_MESSAGES,
  COUNTDOWN_MESSAGES,
  countdownDateSchema,
  MEDIA_MESSAGES,
  musicUrlSchema,
  TEXT_REQUIRED_TITLE,
  TEXT_SETTINGS,
  textSchemaFor,
  videoUrlSchema,
  type SettingsActionData,
  type SettingsIntent,
  type TextSettingKey,
} from "#server/contracts/admin-settings";
import type { Notice } from "#server/contracts/layout";
import { formatLaunchTime } from "#server/contracts/store-time";
import { DomainError } from "#server/errors";
import { requireAdminPage } from "#server/http/auth";
import { statusOf } from "#server/http/error-status";
import { getAdminSettings, setBackgroundMusic, setBackgroundVideo, setCountdownDate, setText } from "#server/services/store/admin-settings";
import { readForm } from "#server/http/requests/request-body";
import { ORDER_EMAIL_KINDS, ORDER_EMAIL_MESSAGES, type OrderEmailKind } from "#server/contracts/order-emails";
import { setOrderMailSettings } from "#server/services/mail/order-mail-settings";
import { logError } from "#server/observability/log";
import { setAlertRecipients } from "#server/services/alerts/alert-recipients";

interface Titles {
  /** The destructive toast's title when the save fails. */
  failed: string;
  /** An empty field gets its own title (docs/spec.md §5 "URL Required", "Text Required"). */
  required?: { title: string; message: string };
  /** Invalid input is only shown on its fields (the countdown form's spec messages), no toast. */
  fieldsOnly?: boolean;
}

/**
 * Answers one form: conform's reply (field errors, shown in place) and the toast. Invalid input
 * and refused saves both get the spec's destructive toast, with the service's message.
 */
async function answer<Value>(
  intent: SettingsIntent,
  submission: Submission<Value, string[]>,
  titles: Titles,
  save: (value: Value) => Promise<Notice>,
) {
  const reply = (status: number, notice: Notice | null, lastResult = submission.reply()) =>
    data<SettingsActionData>({ intent, lastResult, notice }, { status });
  if (submission.status !== "success") {
    if (titles.fieldsOnly) return reply(400, null);
    const first = Object.values(submission.error ?? {}).flat()[0] ?? "Please check the form.";
    const title = titles.required && first === titles.required.message ? titles.required.title : titles.failed;
    return reply(400, { kind: "error", title, description: first });
  }
  try {
    return reply(200, await save(submission.value));
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const lastResult = submission.reply({ fieldErrors: error.fieldErrors });
    return reply(statusOf(error), { kind: "error", title: titles.failed, description: error.message }, lastResult);
  }
}

/**
 * Every setting, read once for the whole tab. A failed read is not an error page: the tab shows
 * the spec's "Failed to load settings" alert with a way to try again.
 */
export async function appSettingsLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  try {
    return { settings: await getAdminSettings(ctx) };
  } catch (error) {
    logError("Loading the app settings failed", error);
    return { settings: null };
  }
}

const TEXT_INTENTS = new Set<string>(["countdown_text", "homepage_tagline", "homepage_subtitle"] satisfies TextSettingKey[]);

/** The App Settings tab's action: every form posts here with its intent (works without JavaScript). */
export async function appSettingsAction({ request }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");

  if (intent === "countdown-date") {
    const submission = parseWithZod(form, { schema: countdownDateSchema });
    return answer(intent, submission, { failed: COUNTDOWN_MESSAGES.failed, fieldsOnly: true }, async (value) => {
      const saved = await setCountdownDate(ctx, value);
      const when = formatLaunchTime(saved.value);
      return { kind: "success", title: COUNTDOWN_MESSAGES.updated, description: `The countdown now ends ${when}.` };
    });
  }
  if (intent === "background-video" || intent === "background-music") {
    const video = intent === "background-video";
    const messages = MEDIA_MESSAGES[video ? "video" : "audio"];
    // An empty field is "URL Required"; a malformed one fails to update, with the same message.
    const emptyField = String(form.get(video ? "videoUrl" : "musicUrl") ?? "").trim() === "";
    const titles: Titles = emptyField
      ? { failed: messages.failed, required: { title: messages.urlRequiredTitle, message: messages.urlInvalid } }
      : { failed: messages.failed };
    if (video) {
      const submission = parseWithZod(form, { schema: videoUrlSchema });
      return answer(intent, submission, titles, async ({ videoUrl }) => {
        await setBackgroundVideo(ctx, videoUrl);
        return { kind: "success", title: messages.updated, description: "The landing page now plays the new video." };
      });
    }
    const submission = parseWithZod(form, { schema: musicUrlSchema });
    return answer(intent, submission, titles, async ({ musicUrl }) => {
      await setBackgroundMusic(ctx, musicUrl);
      return { kind: "success", title: messages.updated, description: "The music player now plays the new track." };
    });
  }
  if (TEXT_INTENTS.has(intent)) {
    const key = intent as TextSettingKey;
    const text = TEXT_SETTINGS[key];
    const submission = parseWithZod(form, { schema: textSchemaFor(key) });
    return answer(
      key,
      submission,
      { failed: text.failed, required: { title: TEXT_REQUIRED_TITLE, message: text.required } },
      async (value) => {
        await setText(ctx, key, value.text);
        return { kind: "success", title: text.updated, description: `The new ${text.label.toLowerCase()} is live.` };
      },
    );
  }
  if (intent === "order-emails") {
    // Checkboxes: a ticked one is sent, an unticked one is not sent at all.
    const values = Object.fromEntries(ORDER_EMAIL_KINDS.map((kind) => [kind, form.get(kind) === "on"])) as Record<OrderEmailKind, boolean>;
    await setOrderMailSettings(ctx, values);
    const notice: Notice = {
      kind: "success",
      title: ORDER_EMAIL_MESSAGES.updated,
      description: "The buyer's e-mails follow the new choice.",
    };
    return data<SettingsActionData>({ intent, lastResult: { status: "success" }, notice });
  }
  if (intent === "alert-recipients") {
    try {
      const list = await setAlertRecipients(ctx, String(form.get("recipients") ?? ""));
      const notice: Notice = {
        kind: "success",
        title: ALERT_RECIPIENT_MESSAGES.updated,
        description: `Alerts now go to ${list.join(", ")}.`,
      };
      return data<SettingsActionData>({ intent, lastResult: { status: "success" }, notice });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const notice: Notice = { kind: "error", title: ALERT_RECIPIENT_MESSAGES.failed, description: error.message };
      const lastResult = { status: "error" as const, error: { recipients: [error.fieldErrors?.value?.[0] ?? error.message] } };
      return data<SettingsActionData>({ intent, lastResult, notice }, { status: statusOf(error) });
    }
  }
  throw data({ message: "Unknown form." }, { status: 400 });
}

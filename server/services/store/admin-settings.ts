import type { ZodType } from "zod";
import {
  COUNTDOWN_MESSAGES,
  countdownDateSchema,
  musicUrlSchema,
  TEXT_SETTING_KEYS,
  textSchemaFor,
  TEXT_SETTINGS,
  videoUrlSchema,
  type AdminSettingsView,
  type TextSettingKey,
} from "#server/contracts/admin-settings";
import {
  formatLaunchTime,
  isCalendarDay,
  STORE_TIME_ZONE,
  storeDayOf,
  storeToday,
  storeWallClockToUtc,
  utcToStoreWallClock,
} from "#server/contracts/store-time";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";
import { saveCountdown } from "#server/services/drop/drops";
import { sanitizeRichText } from "#server/services/security/sanitize";
import { getOrderMailSettings } from "#server/services/mail/order-mail-settings";
import { getPublicSettings, getSetting, setSetting, settingDefaults, type Setting, type SettingKey } from "./settings";
import { alertRecipients } from "#server/services/alerts/alert-recipients";

/**
 * The admin's writes to app settings (docs/spec.md §2 App Settings tab, §5, §7). Every door (page forms,
 * tRPC, REST) lands here, and each input is checked here with the shared contract, so the same
 * words come back whichever door was used.
 */

/** Parses with a contract; failures become Invalid with per-field messages. */
export function parseInput<T>(schema: ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw Invalid.fromZod(result.error);
}

/** The countdown's date and time in New York → the UTC instant (see storeWallClockToUtc for DST). */
export function easternToInstant(date: string, time: string): Date {
  if (!isCalendarDay(date)) throw new Invalid(COUNTDOWN_MESSAGES.dateInvalid, { date: [COUNTDOWN_MESSAGES.dateInvalid] });
  const instant = storeWallClockToUtc(date, time);
  if (!instant) throw new Invalid(COUNTDOWN_MESSAGES.timeSkipped, { time: [COUNTDOWN_MESSAGES.timeSkipped] });
  return instant;
}

function refusePastDay(ctx: AppContext, instant: Date, field: string): void {
  if (storeDayOf(instant) < storeToday(ctx.clock.now())) {
    throw new Invalid(COUNTDOWN_MESSAGES.datePast, { [field]: [COUNTDOWN_MESSAGES.datePast] });
  }
}

/** The countdown form: `{date: "yyyy-MM-dd", time: "HH:MM"}` in New York. Days before today are refused. */
export async function setCountdownDate(ctx: AppContext, input: unknown): Promise<Setting> {
  const { date, time } = parseInput(countdownDateSchema, input);
  const instant = easternToInstant(date, time);
  refusePastDay(ctx, instant, "date");
  return saveCountdown(ctx, instant.toISOString());
}

// An offset is required: "2026-07-04T00:00" alone would be read in the server's own zone.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;

/** docs/spec.md §7 POST /api/admin/settings: the value is the ISO instant the client converted from Eastern Time. */
export async function setCountdownInstant(ctx: AppContext, value: string, field = "value"): Promise<Setting> {
  const instant = new Date(value);
  if (!ISO_INSTANT.test(value.trim()) || Number.isNaN(instant.getTime())) {
    throw new Invalid(COUNTDOWN_MESSAGES.instantInvalid, { [field]: [COUNTDOWN_MESSAGES.instantInvalid] });
  }
  refusePastDay(ctx, instant, field);
  return saveCountdown(ctx, instant.toISOString());
}

export async function setBackgroundVideo(ctx: AppContext, videoUrl: unknown): Promise<Setting> {
  return setSetting(ctx, "background_video", parseInput(videoUrlSchema, { videoUrl }).videoUrl);
}

export async function setBackgroundMusic(ctx: AppContext, musicUrl: unknown): Promise<Setting> {
  return setSetting(ctx, "background_music", parseInput(musicUrlSchema, { musicUrl }).musicUrl);
}

export function isTextSettingKey(key: string): key is TextSettingKey {
  return (TEXT_SETTING_KEYS as readonly string[]).includes(key);
}

/**
 * Countdown text is HTML (it may break lines with <br>): sanitised before it is stored, and text
 * that sanitises to nothing counts as empty. Tagline and subtitle are plain text, shown escaped.
 */
export async function setText(ctx: AppContext, key: TextSettingKey, text: unknown): Promise<Setting> {
  if (!isTextSettingKey(key)) throw new Invalid(`Unknown text setting "${String(key)}".`, { key: ["Unknown setting."] });
  let value = parseInput(textSchemaFor(key), { text }).text;
  if (key === "countdown_text") {
    value = sanitizeRichText(value);
    const { required } = TEXT_SETTINGS.countdown_text;
    if (value.replace(/<br\s*\/?>|&nbsp;/gi, "").trim() === "") throw new Invalid(required, { text: [required] });
  }
  return setSetting(ctx, key, value);
}

/** POST /api/admin/settings {key, value}: each key through its own rules, never straight to storage. */
export async function updateSetting(ctx: AppContext, key: SettingKey, value: string): Promise<Setting> {
  switch (key) {
    case "countdown_date":
      return setCountdownInstant(ctx, value);
    case "background_video":
      return setBackgroundVideo(ctx, value);
    case "background_music":
      return setBackgroundMusic(ctx, value);
    default:
      return setText(ctx, key, value);
  }
}

/** GET /api/admin/settings/countdown_date: the stored setting, or the default with no updatedAt. */
export async function getCountdownSetting(ctx: AppContext): Promise<{ key: "countdown_date"; value: string; updatedAt: string | null }> {
  const stored = await getSetting(ctx, "countdown_date");
  return { key: "countdown_date", value: stored?.value ?? settingDefaults(ctx).countdown_date, updatedAt: stored?.updatedAt ?? null };
}

/** Everything the App Settings tab shows, with the countdown already in New York time. */
export async function getAdminSettings(ctx: AppContext): Promise<AdminSettingsView> {
  const [values, countdown, orderEmails, alertTo] = await Promise.all([
    getPublicSettings(ctx),
    getCountdownSetting(ctx),
    getOrderMailSettings(ctx),
    alertRecipients(ctx),
  ]);
  const target = new Date(countdown.value);
  return {
    orderEmails,
    alertRecipients: alertTo,
    timeZone: STORE_TIME_ZONE,
    today: storeToday(ctx.clock.now()),
    countdown: {
      value: countdown.value,
      updatedAt: countdown.updatedAt,
      ...utcToStoreWallClock(target),
      label: formatLaunchTime(target),
      passed: target.getTime() <= ctx.clock.now().getTime(),
    },
    backgroundVideo: values.background_video,
    backgroundMusic: values.background_music,
    texts: {
      countdown_text: sanitizeRichText(values.countdown_text),
      homepage_tagline: values.homepage_tagline,
      homepage_subtitle: values.homepage_subtitle,
    },
  };
}

import { storeWallClockToUtc } from "#server/contracts/store-time";
import type { AppContext } from "#server/context";
import { compiledOnce } from "#db/compiled-query";
import { Invalid } from "#server/errors";

export const SETTING_KEYS = [
  "countdown_date",
  "background_video",
  "background_music",
  "countdown_text",
  "homepage_tagline",
  "homepage_subtitle",
] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];

export interface Setting {
  key: SettingKey;
  value: string;
  updatedAt: string;
}

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

function assertKey(key: string): asserts key is SettingKey {
  if (!isSettingKey(key)) throw new Invalid(`Unknown setting "${key}".`, { key: ["Unknown setting."] });
}

// The spec's default launch instant, worked out once: through date-fns-tz it was a sixth of a bag
// add's CPU on a store with no countdown set (issue 24), and every page's settings read paid it.
let defaultCountdown: string | undefined;

/** docs/spec.md §9 defaults. A function, because the countdown text carries the configured brand name. */
export function settingDefaults(ctx: AppContext): Record<SettingKey, string> {
  defaultCountdown ??= storeWallClockToUtc("2025-07-04", "00:00")!.toISOString();
  return {
    countdown_date: defaultCountdown,
    background_video: "/media/background.mp4",
    background_music: "/media/music.mp3",
    countdown_text: `Time's almost up,<br>${ctx.config.brand.name} begins in:`,
    homepage_tagline: "Legacy isn't told — it's worn.",
    homepage_subtitle: "Sin gritos. Sin exageraciones. Solo presencia.",
  };
}

// Read several times by every shopper's request (the countdown gates the store): kept compiled.
const settingRow = compiledOnce((db, $: { key: string }) =>
  db.selectFrom("appSettings").select(["key", "value", "updatedAt"]).where("key", "=", $.key),
);

export async function getSetting(ctx: AppContext, key: SettingKey): Promise<Setting | null> {
  assertKey(key);
  const row = await settingRow.first(ctx.db, { key });
  return row ? { key, value: row.value, updatedAt: row.updatedAt } : null;
}

/** The stored value, or the default when the admin never set one. */
export async function getSettingValue(ctx: AppContext, key: SettingKey): Promise<string> {
  return (await getSetting(ctx, key))?.value ?? settingDefaults(ctx)[key];
}

/** Every setting resolved to its stored value or default, in one query. */
export async function getPublicSettings(ctx: AppContext): Promise<Record<SettingKey, string>> {
  const rows = await ctx.db.selectFrom("appSettings").select(["key", "value"]).where("key", "in", SETTING_KEYS).execute();
  const resolved = settingDefaults(ctx);
  for (const row of rows) if (isSettingKey(row.key)) resolved[row.key] = row.value;
  return resolved;
}

function normalise(key: SettingKey, value: string): string {
  if (key !== "countdown_date") return value;
  const date = new Date(value);
  // Date.parse alone is lenient ("1" is 2001): ask for an ISO date first.
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(date.getTime())) {
    throw new Invalid("The countdown date is not a valid date.", { value: ["Enter a valid date and time."] });
  }
  // One shape in storage, whatever offset the caller used.
  return date.toISOString();
}

/**
 * Creates or replaces one setting. No HTML sanitising here: the doors that accept HTML do it. The
 * countdown is set through drops.ts `saveCountdown`, which keeps its drop.
 */
export async function setSetting(ctx: AppContext, key: SettingKey, value: string): Promise<Setting> {
  assertKey(key);
  if (typeof value !== "string") throw new Invalid("A setting value must be text.", { value: ["Required."] });
  const stored = normalise(key, value);
  const updatedAt = ctx.clock.now().toISOString();
  await ctx.db
    .insertInto("appSettings")
    .values({ key, value: stored, updatedAt })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: stored, updatedAt }))
    .execute();
  return { key, value: stored, updatedAt };
}

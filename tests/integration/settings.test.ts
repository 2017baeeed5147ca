import { beforeEach, describe, expect, it } from "vitest";
import { Invalid } from "#server/errors";
import { SETTING_KEYS, getPublicSettings, getSetting, getSettingValue, setSetting, type SettingKey } from "#server/services/store/settings";
import { createTestContext } from "../setup/context";

const ctx = createTestContext({ BRAND_NAME: "Legacy" });

beforeEach(async () => {
  await ctx.db.deleteFrom("appSettings").execute();
  ctx.clock.set("2026-06-01T12:00:00.000Z");
});

describe("settings", () => {
  it("returns the spec defaults when nothing is stored", async () => {
    expect(await getSetting(ctx, "countdown_date")).toBeNull();
    expect(await getSettingValue(ctx, "countdown_date")).toBe("2025-07-04T04:00:00.000Z");
    expect(await getPublicSettings(ctx)).toEqual({
      countdown_date: "2025-07-04T04:00:00.000Z",
      background_video: "/media/background.mp4",
      background_music: "/media/music.mp3",
      countdown_text: "Time's almost up,<br>Legacy begins in:",
      homepage_tagline: "Legacy isn't told — it's worn.",
      homepage_subtitle: "Sin gritos. Sin exageraciones. Solo presencia.",
    });
  });

  it("uses the configured brand in the default countdown text", async () => {
    const other = { ...ctx, config: { ...ctx.config, brand: { ...ctx.config.brand, name: "Norte" } } };
    expect(await getSettingValue(other, "countdown_text")).toBe("Time's almost up,<br>Norte begins in:");
  });

  it("stores a value and reads it back, with updatedAt from the clock", async () => {
    const saved = await setSetting(ctx, "homepage_tagline", "Worn, not told.");
    expect(saved).toEqual({ key: "homepage_tagline", value: "Worn, not told.", updatedAt: "2026-06-01T12:00:00.000Z" });
    expect(await getSetting(ctx, "homepage_tagline")).toEqual(saved);
    expect(await getSettingValue(ctx, "homepage_tagline")).toBe("Worn, not told.");
    expect((await getPublicSettings(ctx)).homepage_tagline).toBe("Worn, not told.");
  });

  it("replaces an existing value in place", async () => {
    await setSetting(ctx, "countdown_text", "First");
    ctx.clock.advance(60_000);
    await setSetting(ctx, "countdown_text", "Second<br>line");
    const rows = await ctx.db.selectFrom("appSettings").selectAll().where("key", "=", "countdown_text").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ value: "Second<br>line", updatedAt: "2026-06-01T12:01:00.000Z" });
  });

  it("normalises the countdown date to an ISO UTC instant", async () => {
    const saved = await setSetting(ctx, "countdown_date", "2026-07-04T00:00:00-04:00");
    expect(saved.value).toBe("2026-07-04T04:00:00.000Z");
    expect(await getSettingValue(ctx, "countdown_date")).toBe("2026-07-04T04:00:00.000Z");
  });

  it.each(["not a date", "", "1", "2026-13-45T99:00:00Z"])("rejects the countdown date %j and writes nothing", async (value) => {
    await expect(setSetting(ctx, "countdown_date", value)).rejects.toBeInstanceOf(Invalid);
    expect(await ctx.db.selectFrom("appSettings").selectAll().execute()).toEqual([]);
  });

  it("rejects an unknown key and writes nothing", async () => {
    await expect(setSetting(ctx, "admin_password" as SettingKey, "x")).rejects.toBeInstanceOf(Invalid);
    await expect(getSetting(ctx, "nope" as SettingKey)).rejects.toBeInstanceOf(Invalid);
    expect(await ctx.db.selectFrom("appSettings").selectAll().execute()).toEqual([]);
  });

  it("lists exactly the six spec keys", () => {
    expect([...SETTING_KEYS].sort()).toEqual([
      "background_music",
      "background_video",
      "countdown_date",
      "countdown_text",
      "homepage_subtitle",
      "homepage_tagline",
    ]);
  });
});

import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Countdown } from "#app/components/countdown";
import * as indexRoute from "#app/routes/_index";
import * as aboutRoute from "#app/routes/about";
import * as countdownRoute from "#app/routes/countdown";
import { useAppContextForTests } from "#server/boot";
import { saveCountdown } from "#server/services/drop/drops";
import { setSetting, type SettingKey } from "#server/services/store/settings";
import { createTestContext } from "../setup/context";
import { api } from "../setup/http";

const ctx = createTestContext({ BRAND_NAME: "Legacy", SOCIAL_HANDLE: "legacy.worn" });

beforeAll(() => useAppContextForTests(ctx));
beforeEach(async () => {
  await ctx.db.deleteFrom("appSettings").execute();
  ctx.clock.set("2025-06-01T12:00:00.000Z");
});

const ENDPOINTS = [
  {
    path: "/api/countdown-date",
    key: "countdown_date",
    byDefault: { date: "2025-07-04T04:00:00.000Z" },
    stored: "2026-07-04T00:00:00-04:00",
    answer: { date: "2026-07-04T04:00:00.000Z" },
  },
  {
    path: "/api/background-video",
    key: "background_video",
    byDefault: { videoUrl: "/media/background.mp4" },
    stored: "/uploads/videos/drop-two.mp4",
    answer: { videoUrl: "/uploads/videos/drop-two.mp4" },
  },
  {
    path: "/api/background-music",
    key: "background_music",
    byDefault: { musicUrl: "/media/music.mp3" },
    stored: "/uploads/audio/theme.mp3",
    answer: { musicUrl: "/uploads/audio/theme.mp3" },
  },
  {
    path: "/api/homepage-tagline",
    key: "homepage_tagline",
    byDefault: { text: "Legacy isn't told — it's worn." },
    stored: "Worn, not told.",
    answer: { text: "Worn, not told." },
  },
  {
    path: "/api/homepage-subtitle",
    key: "homepage_subtitle",
    byDefault: { text: "Sin gritos. Sin exageraciones. Solo presencia." },
    stored: "Solo presencia.",
    answer: { text: "Solo presencia." },
  },
  {
    path: "/api/countdown-text",
    key: "countdown_text",
    byDefault: { text: "Time's almost up,<br />Legacy begins in:" },
    stored: "<b>Drop two</b><br>begins in:",
    answer: { text: "<b>Drop two</b><br />begins in:" },
  },
] as const;

describe.each(ENDPOINTS)("GET $path", ({ path, key, byDefault, stored, answer }) => {
  it("answers the spec default when the admin never set it", async () => {
    const response = await api("GET", path);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(byDefault);
  });

  it("answers the stored setting", async () => {
    await setSetting(ctx, key as SettingKey, stored);
    const response = await api("GET", path);
    expect(await response.json()).toEqual(answer);
  });

  it("refuses other methods with 405", async () => {
    const response = await api("POST", path, { body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
  });
});

describe("caching of the public settings", () => {
  it("never lets a cache hold the countdown date", async () => {
    const response = await api("GET", "/api/countdown-date");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it.each(ENDPOINTS.filter((e) => e.path !== "/api/countdown-date"))("caches $path for ten seconds", async ({ path }) => {
    const response = await api("GET", path);
    expect(response.headers.get("Cache-Control")).toBe("public, max-age=10");
  });
});

describe("GET /api/countdown-text", () => {
  it("strips scripts, event handlers and javascript: links from the admin's HTML", async () => {
    await setSetting(ctx, "countdown_text", '<b onclick="steal()">Soon</b><script>alert(1)</script><a href="javascript:alert(1)">x</a>');
    const response = await api("GET", "/api/countdown-text");
    expect(await response.json()).toEqual({ text: '<b>Soon</b><a rel="noopener noreferrer">x</a>' });
  });
});

/** The countdown exactly as the server puts it into the page's HTML. */
const countdownHtml = (data: { countdownDate: string; now: string }) =>
  renderToStaticMarkup(
    createElement(StaticRouter, { location: "/" }, createElement(Countdown, { target: data.countdownDate, serverNow: data.now })),
  );

describe("the landing page loader", () => {
  it("hands the page the settings, the brand and the server's clock", async () => {
    await setSetting(ctx, "homepage_tagline", "Worn, not told.");
    expect(await indexRoute.loader()).toEqual({
      brand: { name: "Legacy", socialHandle: "legacy.worn", supportEmail: "support@legacy.example" },
      now: "2025-06-01T12:00:00.000Z",
      today: "June 1, 2025",
      countdownDate: "2025-07-04T04:00:00.000Z",
      tagline: "Worn, not told.",
      subtitle: "Sin gritos. Sin exageraciones. Solo presencia.",
      videoUrl: "/media/background.mp4",
      musicUrl: "/media/music.mp3",
    });
  });

  it("renders the remaining time on the server", async () => {
    ctx.clock.set("2025-07-01T02:58:51.000Z");
    const html = countdownHtml(await indexRoute.loader());
    expect(html).toMatch(/>03<\/span><span class="countdown-label">Days/);
    expect(html).toMatch(/>09<\/span><span class="countdown-label">Secs/);
  });

  it("renders the finished state, with a no-JavaScript redirect to the store, once the launch has passed", async () => {
    await saveCountdown(ctx, "2025-07-04T00:00:00-04:00");
    ctx.clock.set("2025-07-04T04:00:05.000Z");
    const html = countdownHtml(await indexRoute.loader());
    expect(html).toContain("LAUNCH DAY IS HERE!");
    expect(html).toContain("Redirecting to store...");
    expect(html).toContain('<meta http-equiv="refresh" content="2;url=/store"/>');
  });
});

describe("the alternative countdown page loader", () => {
  it("sanitises the countdown text on the server before the page renders it as HTML", async () => {
    await setSetting(ctx, "countdown_text", "Almost<br><img src=x onerror=alert(1)>there");
    const data = await countdownRoute.loader();
    expect(data.countdownHtml).toBe("Almost<br />there");
    expect(data.musicUrl).toBe("/media/music.mp3");
  });
});

describe("the about page loader", () => {
  it("dates its line with the first drop, in Eastern time", async () => {
    const data = await aboutRoute.loader();
    expect(data.firstDrop).toEqual({ iso: "2025-07-04T04:00:00.000Z", label: "July 4, 2025" });
    expect(data.videoUrl).toBe("/media/background.mp4");
  });
});

import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiRouter } from "#server/api/dispatch";
import { COUNTDOWN_MESSAGES, SETTING_KEY_NAMES } from "#server/contracts/admin-settings";
import { useAppContextForTests } from "#server/boot";
import { Invalid } from "#server/errors";
import { easternToInstant, setCountdownDate } from "#server/services/store/admin-settings";
import { SETTING_KEYS } from "#server/services/store/settings";
import { ensureAdmin, resetLoginLimits } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext({ BRAND_NAME: "Legacy" });
const admin = new CookieJar();
const shopper = new CookieJar();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await resetLoginLimits(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
});
beforeEach(async () => {
  await ctx.db.deleteFrom("appSettings").execute();
  ctx.clock.set("2026-01-15T17:00:00.000Z");
});

const post = (urlPath: string, body: unknown, jar: CookieJar | undefined = admin) => api("POST", urlPath, { body, jar });
const trpcQuery = (name: string, jar?: CookieJar) => api("GET", `/api/trpc/admin.settings.${name}`, { jar });
const trpcMutation = (name: string, input: unknown, jar: CookieJar | undefined = admin) =>
  api("POST", `/api/trpc/admin.settings.${name}`, { body: input, jar });

describe("the API table", () => {
  it("keeps the underscore of countdown_date literal: GET /api/admin/settings/countdown_date", () => {
    expect(apiRouter.match("/api/admin/settings/countdown_date")?.entry.path).toBe("/api/admin/settings/countdown_date");
    expect(apiRouter.match("/api/admin/settings")?.entry.path).toBe("/api/admin/settings");
  });

  it("the contract lists the same keys as the settings service", () => {
    expect([...SETTING_KEY_NAMES].sort()).toEqual([...SETTING_KEYS].sort());
  });
});

describe("Eastern Time to UTC", () => {
  it.each([
    ["2026-03-08", "01:30", "2026-03-08T06:30:00.000Z"], // EST, before the spring-forward
    ["2026-03-08", "03:30", "2026-03-08T07:30:00.000Z"], // EDT, after it
    ["2026-07-04", "00:00", "2026-07-04T04:00:00.000Z"],
    ["2026-11-01", "00:30", "2026-11-01T04:30:00.000Z"], // EDT, before the fall-back
    ["2026-11-01", "01:30", "2026-11-01T05:30:00.000Z"], // the repeated hour: its first occurrence (EDT)
    ["2026-11-01", "02:30", "2026-11-01T07:30:00.000Z"], // EST, after it
    ["2026-12-31", "23:59", "2027-01-01T04:59:00.000Z"],
  ])("%s %s in New York is %s", async (date, time, iso) => {
    expect(easternToInstant(date, time).toISOString()).toBe(iso);
    expect((await setCountdownDate(ctx, { date, time })).value).toBe(iso);
  });

  it("refuses the hour skipped by the spring-forward, and days that do not exist", () => {
    expect(() => easternToInstant("2026-03-08", "02:30")).toThrow(COUNTDOWN_MESSAGES.timeSkipped);
    expect(() => easternToInstant("2026-02-30", "10:00")).toThrow(COUNTDOWN_MESSAGES.dateInvalid);
  });

  it("takes 'today' in New York, not in UTC", async () => {
    // 03:00 UTC on 1 June is still 31 May in New York.
    ctx.clock.set("2026-06-01T03:00:00.000Z");
    await expect(setCountdownDate(ctx, { date: "2026-05-31", time: "23:30" })).resolves.toMatchObject({
      value: "2026-06-01T03:30:00.000Z",
    });
    const refused = setCountdownDate(ctx, { date: "2026-05-30", time: "12:00" });
    await expect(refused).rejects.toBeInstanceOf(Invalid);
    await expect(refused).rejects.toMatchObject({ fieldErrors: { date: [COUNTDOWN_MESSAGES.datePast] } });
  });
});

describe("countdown date through tRPC and REST", () => {
  it("validates the form with the spec's messages", async () => {
    const cases = [
      [{ date: "", time: "12:00" }, "date", "A date is required."],
      [{ time: "12:00" }, "date", "A date is required."],
      [{ date: "2026-07-04", time: "25:00" }, "time", "Time must be in the format HH:MM (24-hour format)"],
      [{ date: "2026-07-04", time: "7:30" }, "time", "Time must be in the format HH:MM (24-hour format)"],
      [{ date: "2026-07-04", time: "12:00 PM" }, "time", "Time must be in the format HH:MM (24-hour format)"],
      [{ date: "2026-01-14", time: "12:00" }, "date", COUNTDOWN_MESSAGES.datePast],
    ] as const;
    for (const [input, field, message] of cases) {
      const response = await trpcMutation("setCountdownDate", input);
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.message).toBe(message);
      expect(error.data.fieldErrors[field]).toEqual([message]);
    }
    expect(await ctx.db.selectFrom("appSettings").selectAll().execute()).toEqual([]);
  });

  it("sets the date from the form and the public countdown answers it at once", async () => {
    const response = await trpcMutation("setCountdownDate", { date: "2026-03-08", time: "03:30" });
    expect(response.status).toBe(200);
    expect((await response.json()).result.data).toMatchObject({ key: "countdown_date", value: "2026-03-08T07:30:00.000Z" });
    const pub = await api("GET", "/api/countdown-date");
    expect(await pub.json()).toEqual({ date: "2026-03-08T07:30:00.000Z" });
    expect(pub.headers.get("Cache-Control")).toBe("no-store");

    const view = (await (await trpcQuery("get", admin)).json()).result.data;
    expect(view.countdown).toEqual({
      value: "2026-03-08T07:30:00.000Z",
      updatedAt: "2026-01-15T17:00:00.000Z",
      date: "2026-03-08",
      time: "03:30",
      label: "Sunday, March 8, 2026 at 3:30 AM EDT",
      passed: false,
    });
    expect(view).toMatchObject({ timeZone: "America/New_York", today: "2026-01-15", backgroundVideo: "/media/background.mp4" });
  });

  it("GET /api/admin/settings/countdown_date answers the default, then what POST /api/admin/settings stored", async () => {
    const before = await api("GET", "/api/admin/settings/countdown_date", { jar: admin });
    expect(await before.json()).toEqual({ key: "countdown_date", value: "2025-07-04T04:00:00.000Z", updatedAt: null });

    const saved = await post("/api/admin/settings", { key: "countdown_date", value: "2026-11-01T01:30:00-05:00" });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ key: "countdown_date", value: "2026-11-01T06:30:00.000Z", updatedAt: "2026-01-15T17:00:00.000Z" });

    const after = await api("GET", "/api/admin/settings/countdown_date", { jar: admin });
    expect(await after.json()).toEqual({ key: "countdown_date", value: "2026-11-01T06:30:00.000Z", updatedAt: "2026-01-15T17:00:00.000Z" });
    expect(await (await api("GET", "/api/countdown-date")).json()).toEqual({ date: "2026-11-01T06:30:00.000Z" });
  });

  it.each([
    ["2026-07-04T00:00:00", COUNTDOWN_MESSAGES.instantInvalid], // no offset: whose midnight?
    ["July 4", COUNTDOWN_MESSAGES.instantInvalid],
    ["2026-01-14T23:00:00-05:00", COUNTDOWN_MESSAGES.datePast], // yesterday in New York
  ])("POST /api/admin/settings refuses the countdown value %j", async (value, message) => {
    const response = await post("/api/admin/settings", { key: "countdown_date", value });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message, errors: { value: [message] } });
  });

  it("POST /api/admin/settings refuses unknown keys and missing values", async () => {
    const unknown = await post("/api/admin/settings", { key: "admin_password", value: "x" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).errors.key).toHaveLength(1);
    const missing = await post("/api/admin/settings", { key: "countdown_date" });
    expect(missing.status).toBe(400);
    expect((await missing.json()).errors).toEqual({ value: ["A value is required."] });
  });
});

describe("texts", () => {
  it("sanitises the countdown text and keeps its line breaks", async () => {
    const dirty = `Time's almost up,<br><script>alert(1)</script>Legacy <b onclick="x()">begins</b> <img src=x onerror=alert(1)>in:`;
    const response = await post("/api/admin/countdown-text", { text: dirty });
    expect(response.status).toBe(200);
    const expected = "Time's almost up,<br />Legacy <b>begins</b> in:";
    expect(await response.json()).toEqual({ text: expected });
    expect(await (await api("GET", "/api/countdown-text")).json()).toEqual({ text: expected });

    const viaKey = await post("/api/admin/settings", { key: "countdown_text", value: `<a href="javascript:alert(1)">Soon</a>` });
    expect((await viaKey.json()).value).toBe(`<a rel="noopener noreferrer">Soon</a>`);
  });

  it.each([
    ["/api/admin/countdown-text", "", "Please enter countdown text."],
    ["/api/admin/countdown-text", "<script>alert(1)</script><br>", "Please enter countdown text."],
    ["/api/admin/homepage-tagline", "   ", "Please enter homepage tagline text."],
    ["/api/admin/homepage-subtitle", "", "Please enter homepage subtitle text."],
  ])("refuses empty text at %s", async (urlPath, text, message) => {
    const response = await post(urlPath, { text });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message, errors: { text: [message] } });
  });

  it("stores tagline and subtitle trimmed, through REST and tRPC", async () => {
    expect(await (await post("/api/admin/homepage-tagline", { text: "  Worn, not told.  " })).json()).toEqual({ text: "Worn, not told." });
    const viaTrpc = await trpcMutation("setText", { key: "homepage_subtitle", text: "Solo presencia." });
    expect((await viaTrpc.json()).result.data).toEqual({ text: "Solo presencia." });
    const view = (await (await trpcQuery("get", admin)).json()).result.data;
    expect(view.texts).toMatchObject({ homepage_tagline: "Worn, not told.", homepage_subtitle: "Solo presencia." });
    const empty = await trpcMutation("setText", { key: "homepage_tagline", text: "" });
    expect((await empty.json()).error.message).toBe("Please enter homepage tagline text.");
  });
});

describe("background video and music", () => {
  it("saves a site path or an http(s) URL, and the public endpoint answers it", async () => {
    const saved = await post("/api/admin/background-video", { videoUrl: "/uploads/media/video-1.mp4" });
    expect(await saved.json()).toEqual({ videoUrl: "/uploads/media/video-1.mp4" });
    expect(await (await api("GET", "/api/background-video")).json()).toEqual({ videoUrl: "/uploads/media/video-1.mp4" });
    const music = await post("/api/admin/background-music", { musicUrl: "https://cdn.example.com/theme.mp3" });
    expect(await music.json()).toEqual({ musicUrl: "https://cdn.example.com/theme.mp3" });
    const viaTrpc = await trpcMutation("setBackgroundMusic", { musicUrl: "/media/music.mp3" });
    expect((await viaTrpc.json()).result.data).toEqual({ musicUrl: "/media/music.mp3" });
  });

  it.each(["", "   ", "javascript:alert(1)", "//evil.example/clip.mp4", "clip.mp4", "ftp://example.com/a.mp4", "/a b.mp4"])(
    "refuses the URL %j with the spec's message",
    async (url) => {
      const video = await post("/api/admin/background-video", { videoUrl: url });
      expect(video.status).toBe(400);
      expect(await video.json()).toEqual({
        message: "Please enter a valid video URL.",
        errors: { videoUrl: ["Please enter a valid video URL."] },
      });
      const music = await post("/api/admin/background-music", { musicUrl: url });
      expect(await music.json()).toEqual({
        message: "Please enter a valid music URL.",
        errors: { musicUrl: ["Please enter a valid music URL."] },
      });
    },
  );
});

describe("shipping test", () => {
  it("POST /api/admin/test-shippo makes a local test label", async () => {
    const response = await post("/api/admin/test-shippo", undefined);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      message: expect.stringContaining("test label"),
      details: {
        trackingNumber: expect.any(String),
        carrier: expect.any(String),
        cost: expect.any(Number),
        labelUrl: expect.stringMatching(/^\/api\/admin\/labels\//),
      },
    });
    const viaTrpc = await trpcMutation("testShipping", {});
    expect((await viaTrpc.json()).result.data.details.trackingNumber).toEqual(expect.any(String));
  });
});

describe("only admins", () => {
  const doors = [
    ["GET /api/admin/settings/countdown_date", "/api/admin/settings/countdown_date", "GET"],
    ["POST /api/admin/settings", "/api/admin/settings", "POST"],
    ["POST /api/admin/upload-video", "/api/admin/upload-video", "POST"],
    ["POST /api/admin/upload-audio", "/api/admin/upload-audio", "POST"],
    ["POST /api/admin/background-video", "/api/admin/background-video", "POST"],
    ["POST /api/admin/background-music", "/api/admin/background-music", "POST"],
    ["POST /api/admin/countdown-text", "/api/admin/countdown-text", "POST"],
    ["POST /api/admin/homepage-tagline", "/api/admin/homepage-tagline", "POST"],
    ["POST /api/admin/homepage-subtitle", "/api/admin/homepage-subtitle", "POST"],
    ["POST /api/admin/change-password", "/api/admin/change-password", "POST"],
    ["POST /api/admin/test-shippo", "/api/admin/test-shippo", "POST"],
    // The other method of each door answers 401/403 too, before saying it is not allowed.
    ["POST /api/admin/settings/countdown_date", "/api/admin/settings/countdown_date", "POST"],
    ["GET /api/admin/settings", "/api/admin/settings", "GET"],
    ["GET /api/admin/upload-video", "/api/admin/upload-video", "GET"],
    ["GET /api/admin/change-password", "/api/admin/change-password", "GET"],
  ] as const;

  it.each(doors)("%s: 401 signed out, 403 for a shopper", async (_name, urlPath, method) => {
    const body = method === "POST" ? { key: "homepage_tagline", value: "x", text: "x", videoUrl: "/a.mp4", musicUrl: "/a.mp3" } : undefined;
    const anonymous = await api(method, urlPath, { body });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Please sign in to continue.", errors: {} });
    const ordinary = await api(method, urlPath, { body, jar: shopper });
    expect(ordinary.status).toBe(403);
    expect(await ordinary.json()).toEqual({ message: "Admin access is required.", errors: {} });
    expect(await ctx.db.selectFrom("appSettings").selectAll().execute()).toEqual([]);
  });

  it("tRPC admin.settings.* refuses visitors and shoppers", async () => {
    expect((await trpcQuery("get")).status).toBe(401);
    expect((await trpcQuery("get", shopper)).status).toBe(403);
    expect((await trpcMutation("setText", { key: "homepage_tagline", text: "x" }, shopper)).status).toBe(403);
    expect((await trpcMutation("changePassword", { currentPassword: "shopper1", newPassword: "hacked!" }, shopper)).status).toBe(403);
    expect((await trpcMutation("testShipping", {}, new CookieJar())).status).toBe(401);
    expect(await ctx.db.selectFrom("appSettings").selectAll().execute()).toEqual([]);
  });

  it("the wrong method is a 405 for an admin", async () => {
    expect((await api("GET", "/api/admin/settings", { jar: admin })).status).toBe(405);
    expect((await api("POST", "/api/admin/settings/countdown_date", { jar: admin })).status).toBe(405);
  });
});

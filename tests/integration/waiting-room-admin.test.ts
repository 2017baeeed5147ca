import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { saveCountdown } from "#server/services/drop/drops";
import { joinLine } from "#server/services/drop/waiting-room";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();
const admin = new CookieJar();
const shopper = new CookieJar();
const T0 = Date.parse("2026-06-01T18:00:00.000Z");

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
  await saveCountdown(ctx, new Date(T0).toISOString());
});

const DEFAULTS = {
  enabled: true,
  opensMinutesBefore: 15,
  closesMinutesAfter: 120,
  admitPerMinute: 300,
  paused: false,
  passMinutes: 15,
  perAddress: 20,
};

describe("GET and PATCH /api/admin/waiting-room", () => {
  it("answers the settings (the defaults) and the live line", async () => {
    ctx.clock.set(new Date(T0 - 5 * 60_000));
    for (let i = 0; i < 3; i++) await joinLine(ctx, { placeId: null, address: `192.0.2.${i}` });
    ctx.clock.set(new Date(T0 + 60_000));
    const response = await api("GET", "/api/admin/waiting-room", { jar: admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ...DEFAULTS,
      dropAt: new Date(T0).toISOString(),
      phase: "open",
      ended: false,
      waiting: 0,
      admitted: 3,
      admittedLastMinute: 0,
      medianWaitSeconds: null,
    });
  });

  it("changes the rate, pauses and ends the room; bad input is a 400 that changes nothing", async () => {
    const changed = await api("PATCH", "/api/admin/waiting-room", { jar: admin, body: { admitPerMinute: 6000, paused: true } });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ admitPerMinute: 6000, paused: true });
    for (const [body, message] of [
      [{ admitPerMinute: 0 }, "admitPerMinute must be at least 1."],
      [{ passMinutes: 2.5 }, "passMinutes must be a whole number."],
      [{ paused: "yes" }, "paused must be true or false."],
    ] as const) {
      const refused = await api("PATCH", "/api/admin/waiting-room", { jar: admin, body: { ...body, perAddress: 5 } });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect((await refused.json()).message).toBe(message);
    }
    const unknown = await api("PATCH", "/api/admin/waiting-room", { jar: admin, body: { admitPerMinut: 10 } });
    expect(unknown.status).toBe(400);
    const after = await (await api("GET", "/api/admin/waiting-room", { jar: admin })).json();
    expect(after).toMatchObject({ admitPerMinute: 6000, paused: true, perAddress: 20 });
    const ended = await api("PATCH", "/api/admin/waiting-room", { jar: admin, body: { ended: true } });
    expect(await ended.json()).toMatchObject({ ended: true, phase: "ended", waiting: 0 });
  });

  it("refuses a visitor with 401 and a shopper with 403, at REST and at tRPC", async () => {
    expect((await api("GET", "/api/admin/waiting-room")).status).toBe(401);
    expect((await api("PATCH", "/api/admin/waiting-room", { jar: shopper, body: { paused: false } })).status).toBe(403);
    expect((await api("GET", "/api/trpc/admin.waitingRoom.get")).status).toBe(401);
    const mutation = await api("POST", "/api/trpc/admin.waitingRoom.update", { jar: shopper, body: { paused: false } });
    expect(mutation.status).toBe(403);
    expect((await (await api("GET", "/api/admin/waiting-room", { jar: admin })).json()).paused).toBe(true);
  });

  it("serves the admin page's live line and its buttons over tRPC", async () => {
    const resumed = await api("POST", "/api/trpc/admin.waitingRoom.update", { jar: admin, body: { paused: false, ended: false } });
    expect(resumed.status).toBe(200);
    const live = await api("GET", "/api/trpc/admin.waitingRoom.get", { jar: admin });
    expect((await live.json()).result.data).toMatchObject({ paused: false, ended: false, phase: "open", admitPerMinute: 6000 });
    const refused = await api("POST", "/api/trpc/admin.waitingRoom.update", { jar: admin, body: { admitPerMinute: -1 } });
    expect(refused.status).toBe(400);
  });
});

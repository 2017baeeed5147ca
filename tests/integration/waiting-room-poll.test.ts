import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as mock, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { answerWaitingPoll, isWaitingPoll } from "#server/http/doors/waiting-room-poll";
import { saveCountdown } from "#server/services/drop/drops";
import { updateWaitingRoom } from "#server/services/drop/waiting-room-admin";
import { mockServer } from "../mocks/server";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

// The line's polls answered ahead of Express (issue 24): the same answer as the API route's for a
// place still waiting, and everything else handed on to it.
const ctx = createTestContext();
beforeAll(() => useAppContextForTests(ctx));

const MINUTE = 60_000;
const HANDED_ON = 299;
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (!isWaitingPoll(req)) return void res.writeHead(404).end();
    answerWaitingPoll(ctx, req, res, () => void res.writeHead(HANDED_ON).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
// The test's own server on loopback is real HTTP, not a vendor to mock.
beforeEach(() => mockServer.use(mock.all(`${base}/*`, () => passthrough())));

async function dropIn(ms: number): Promise<void> {
  const t0 = Date.parse("2027-03-01T17:00:00.000Z");
  await saveCountdown(ctx, new Date(t0).toISOString());
  ctx.clock.set(new Date(t0 - ms));
}

const poll = (jar?: CookieJar, path = "/api/waiting-room") => fetch(`${base}${path}`, { headers: jar ? { Cookie: jar.header() } : {} });

describe("a poll of the waiting line", () => {
  it("answers a place waiting before T-0 and in the line as the API route does, and hands on the rest", async () => {
    await dropIn(5 * MINUTE);
    await updateWaitingRoom(ctx, { paused: true, admitPerMinute: 60, perAddress: 100 });
    const jars = [new CookieJar(), new CookieJar()];
    for (const [i, jar] of jars.entries()) {
      const joined = await api("POST", "/api/waiting-room", { jar, ip: `198.51.100.${i + 1}` });
      expect(joined.status).toBe(201);
      jar.store(joined);
    }

    const quick = await poll(jars[0]);
    const full = await api("GET", "/api/waiting-room", { jar: jars[0] });
    expect(quick.status).toBe(200);
    expect(quick.headers.get("Cache-Control")).toBe("private, no-store");
    expect(quick.headers.get("Content-Type")).toBe("application/json");
    expect(quick.headers.get("Set-Cookie")).toBeNull();
    const body = await quick.json();
    expect(body).toEqual(await full.json());
    expect(body).toMatchObject({ state: "before", position: null });

    // After T-0, drawn and paused: a number in the line, the same on both doors.
    ctx.clock.advance(6 * MINUTE);
    const drawn = await api("GET", "/api/waiting-room", { jar: jars[1] });
    // The room this process read before the draw is kept for up to a second: the poll before then is handed on.
    expect((await poll(jars[1])).status).toBe(HANDED_ON);
    ctx.clock.advance(1_000);
    const waiting = await (await poll(jars[1], "/api/waiting-room?t=1")).json();
    expect(waiting).toEqual(await drawn.json());
    expect(waiting).toMatchObject({ state: "waiting" });
    expect([1, 2]).toContain(waiting.position);
    // The place polled before T-0 had no number then; this process read it again after the draw.
    const first = await (await poll(jars[0])).json();
    expect(first).toEqual(await (await api("GET", "/api/waiting-room", { jar: jars[0] })).json());
    expect(first.position).toBe(3 - waiting.position);

    // No place, a stranger's id, or a turn (the pass is the API route's to give): handed on.
    expect((await poll()).status).toBe(HANDED_ON);
    const stranger = new CookieJar();
    stranger.store(new Response(null, { headers: { "Set-Cookie": "waiting_room_place=not-a-place; Path=/" } }));
    expect((await poll(stranger)).status).toBe(HANDED_ON);
    await updateWaitingRoom(ctx, { paused: false, admitPerMinute: 6000 });
    ctx.clock.advance(MINUTE);
    expect((await poll(jars[0])).status).toBe(HANDED_ON);
    const admitted = await api("GET", "/api/waiting-room", { jar: jars[0] });
    expect(await admitted.json()).toMatchObject({ state: "admitted" });
    expect(admitted.headers.get("Set-Cookie")).toMatch(/^waiting_room_pass=/);
  });

  it("does not answer from a place this process kept once the drop has moved", async () => {
    await dropIn(5 * MINUTE);
    await updateWaitingRoom(ctx, { paused: true, admitPerMinute: 60, perAddress: 100 });
    const jar = new CookieJar();
    const joined = await api("POST", "/api/waiting-room", { jar, ip: "198.51.100.9" });
    jar.store(joined);
    expect(await (await poll(jar)).json()).toMatchObject({ state: "before" });

    // The admin moves the drop ten minutes later: the place was taken for the old one.
    await saveCountdown(ctx, new Date(Date.parse("2027-03-01T17:10:00.000Z")).toISOString());
    ctx.clock.advance(1_000);
    expect((await poll(jar)).status).toBe(HANDED_ON);
  });

  it("is only GET of the line's own path", () => {
    const request = (method: string, url: string) => ({ method, url }) as http.IncomingMessage;
    expect(isWaitingPoll(request("GET", "/api/waiting-room"))).toBe(true);
    expect(isWaitingPoll(request("GET", "/api/waiting-room?x=1"))).toBe(true);
    for (const [method, url] of [
      ["POST", "/api/waiting-room"],
      ["HEAD", "/api/waiting-room"],
      ["GET", "/api/waiting-room/"],
      ["GET", "/api/waiting-roomx"],
      ["GET", "/api/admin/waiting-room"],
    ] as const) {
      expect(isWaitingPoll(request(method, url)), `${method} ${url}`).toBe(false);
    }
  });
});

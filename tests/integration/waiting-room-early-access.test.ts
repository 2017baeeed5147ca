import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as earlyPage from "#app/routes/early-access.$token";
import { useAppContextForTests } from "#server/boot";
import { requirePassForPage, requirePassForPurchase, waitingRoomGate } from "#server/http/gate/waiting-room-gate";
import { newPass } from "#server/services/drop/early-access-pass";
import { saveCountdown } from "#server/services/drop/drops";
import { joinLine } from "#server/services/drop/waiting-room";
import { updateWaitingRoom, waitingRoomAdmin } from "#server/services/drop/waiting-room-admin";
import { forgetCachedRoom } from "#server/services/drop/waiting-room-state";
import { ensureAdmin } from "#server/services/accounts/users";
import { mockServer } from "../mocks/server";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

// Decisions 0019 and 0020 together: inside the waiting room's window, with a line, a browser
// holding an early-access pass claimed for this drop (and not revoked) skips the line, on the
// node gate ahead of the page cache and on the API's purchases; anything else is sent to the line.
const ctx = createTestContext();
const MINUTE = 60_000;
const admin = new CookieJar();
let t0 = Date.parse("2027-05-01T17:00:00.000Z");
let base = "";
let server: http.Server;
let teeId = 0;
let subscriber = 0;

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  // The drop: a restricted product released at the store's countdown date (no date of its own),
  // so each test's countdown is both the waiting room's T-0 and the release links open for.
  await addProduct(ctx, { name: "Drop Parka", inventory: 50, isCountdownRestricted: 1, countdownReleaseDate: null });
  teeId = await addProduct(ctx, { name: "Everyday Tee", inventory: 500 });
  // The gate as server.js mounts it, in front of a stand-in for the page cache and Remix.
  const gate = waitingRoomGate(async () => ctx);
  server = http.createServer((req, res) => {
    void Promise.resolve(gate(req, res)).then((handled) => {
      if (!handled) res.end("through");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => mockServer.use(mswHttp.all(`${base}/*`, () => passthrough())));
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

/** A new countdown date (a day after the last), the clock `offsetMs` from it, and the admin signed in then. */
async function newDrop(offsetMs: number): Promise<number> {
  t0 += 24 * 60 * MINUTE;
  await saveCountdown(ctx, new Date(t0).toISOString());
  at(t0 + offsetMs);
  const login = await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  expect(login.status).toBe(200);
  return t0;
}

function at(ms: number) {
  ctx.clock.set(new Date(ms));
  forgetCachedRoom(ctx);
}

/** Five browsers join the line before T-0; at one a minute they are still waiting after it. */
async function crowd() {
  await updateWaitingRoom(ctx, { admitPerMinute: 1, perAddress: 100 });
  for (let i = 0; i < 5; i++) expect((await joinLine(ctx, { placeId: null, address: `198.51.100.${i}` })).joined).toBe(true);
}

async function expectPeopleWaiting() {
  const figures = await waitingRoomAdmin(ctx);
  expect(figures.phase).toMatch(/^(before|open)$/);
  expect(figures.waiting).toBeGreaterThanOrEqual(4);
}

/** An admin's link for a new subscriber, claimed by a new browser: its id and the browser's jar. */
async function claimedLink(): Promise<{ id: number; jar: CookieJar }> {
  subscriber += 1;
  const email = `fan${subscriber}@example.com`;
  await ctx.db.insertInto("subscribers").values({ email, subscribedAt: ctx.clock.now().toISOString() }).execute();
  const made = await api("POST", "/api/admin/early-access", { jar: admin, body: { email } });
  expect(made.status).toBe(201);
  const { id, url } = (await made.json()) as { id: number; url: string };
  const token = url.split("/early-access/")[1]!;
  const jar = new CookieJar();
  const claimed = await runRoute(earlyPage.action, { path: `/early-access/${token}`, params: { token }, form: {}, jar });
  expect(claimed.status).toBe(302);
  expect(jar.has("early_access")).toBe(true);
  return { id, jar };
}

const earlyCookie = (jar: CookieJar) => /(?:^|; )(early_access=[^;]+)/.exec(jar.header())![1]!;
const withEarly = (value: string) => `other=1; early_access=${value}`;

/** Where each door sends a browser with this Cookie header. */
async function verdicts(cookie: string) {
  const headers = cookie ? { Cookie: cookie } : undefined;
  // A gate that neither answers nor lets the request on would leave it hanging: fail fast instead.
  const signal = AbortSignal.timeout(5_000);
  const page = await fetch(`${base}/store`, { redirect: "manual", headers, signal });
  const pageVerdict = page.status === 303 ? `303 ${page.headers.get("Location")}` : await page.text();
  const form = await fetch(`${base}/store/${teeId}`, {
    method: "POST",
    body: "quantity=1",
    headers: { ...headers, Accept: "application/json" },
    signal,
  });
  const formVerdict = form.status === 429 ? 429 : await form.text();
  const loader = await requirePassForPage(new Request("http://localhost/store.data", { headers })).then(
    () => "through",
    (thrown: Response) => `${thrown.status} ${thrown.headers.get("Location")}`,
  );
  const action = await requirePassForPurchase(new Request("http://localhost/cart", { method: "POST", headers })).then(
    () => "through",
    (thrown: Response) => thrown.status,
  );
  const cart = await api("POST", "/api/cart", { body: { productId: teeId, quantity: 1 }, headers });
  return { page: pageVerdict, form: formVerdict, loader, action, cart: cart.status };
}

const THROUGH = { page: "through", form: "through", loader: "through", action: "through", cart: 201 };
const TO_THE_LINE = { page: "303 /waiting-room", form: 429, loader: "303 /waiting-room", action: 429, cart: 429 };

describe("an early-access pass and the waiting room", () => {
  it("lets a pass claimed for this drop skip the line; the same browser without it is sent to the line", async () => {
    const drop = await newDrop(-10 * MINUTE);
    await crowd();
    const { jar } = await claimedLink();
    at(drop + 10_000);
    await expectPeopleWaiting();

    expect(await verdicts(jar.header())).toEqual(THROUGH);
    expect(await verdicts(`other=1; ${earlyCookie(jar)}`)).toEqual(THROUGH);
    // Claimed before the room opened (but within earlyMinutes of the drop) counts as well.
    const next = await newDrop(-25 * MINUTE);
    const before = await claimedLink();
    at(next - 5 * MINUTE);
    await crowd();
    await expectPeopleWaiting();
    expect(await verdicts(before.jar.header())).toEqual(THROUGH);

    // Without the cookie the same browser is anyone else.
    expect(await verdicts("other=1")).toEqual(TO_THE_LINE);
    expect(await verdicts("")).toEqual(TO_THE_LINE);
  });

  it("sends the pass to the line once the admin revokes its link", async () => {
    const drop = await newDrop(-10 * MINUTE);
    await crowd();
    const { id, jar } = await claimedLink();
    at(drop + 10_000);
    await expectPeopleWaiting();
    expect(await verdicts(jar.header())).toEqual(THROUGH);

    const revoked = await api("POST", `/api/admin/early-access/${id}/revoke`, { jar: admin });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as { status: string }).status).toBe("revoked");
    expect(await verdicts(jar.header())).toEqual(TO_THE_LINE);
  });

  it("sends a forged or tampered pass to the line", async () => {
    const drop = await newDrop(-10 * MINUTE);
    await crowd();
    const { id } = await claimedLink();
    const { id: unclaimedId } = await (async () => {
      subscriber += 1;
      const email = `fan${subscriber}@example.com`;
      await ctx.db.insertInto("subscribers").values({ email, subscribedAt: ctx.clock.now().toISOString() }).execute();
      return (await (await api("POST", "/api/admin/early-access", { jar: admin, body: { email } })).json()) as { id: number };
    })();
    const { jar } = await claimedLink();
    at(drop + 10_000);
    await expectPeopleWaiting();
    const genuine = earlyCookie(jar).slice("early_access=".length);
    expect(await verdicts(withEarly(genuine))).toEqual(THROUGH);

    const [linkId, secret, mac] = genuine.split(".") as [string, string, string];
    const flip = (s: string) => `${s.slice(0, -2)}${s.endsWith("AA") ? "BB" : "AA"}`;
    const forged = {
      "a changed signature": `${linkId}.${secret}.${flip(mac)}`,
      "a changed secret": `${linkId}.${flip(secret)}.${mac}`,
      "another link's id": `${id}.${secret}.${mac}`,
      "signed with another key": newPass("not-the-store-secret", Number(linkId)).value,
      "made up": "1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "not a pass": "let-me-in",
      // Correctly signed (as with a leaked key) but never claimed, or not the claimed one: the database says no.
      "a signed pass for an unclaimed link": newPass(ctx.config.sessionSecret, unclaimedId).value,
      "a second signed pass for a claimed link": newPass(ctx.config.sessionSecret, Number(linkId)).value,
    };
    for (const [what, value] of Object.entries(forged)) {
      expect(await verdicts(withEarly(value)), what).toEqual(TO_THE_LINE);
    }
  });

  it("sends a pass claimed for an earlier drop to the line when the countdown moves beyond earlyMinutes", async () => {
    const first = await newDrop(-10 * MINUTE);
    await crowd();
    const { jar } = await claimedLink();
    at(first + 10_000);
    expect(await verdicts(jar.header())).toEqual(THROUGH);

    // The admin postpones by less than earlyMinutes (30): still this drop's early shopper.
    const postponed = first + 20 * MINUTE;
    await saveCountdown(ctx, new Date(postponed).toISOString());
    at(postponed - 5 * MINUTE);
    await crowd();
    await expectPeopleWaiting();
    expect(await verdicts(jar.header())).toEqual(THROUGH);

    // The next drop, a day later: the old pass is anyone's.
    const later = await newDrop(-5 * MINUTE);
    await crowd();
    await expectPeopleWaiting();
    expect(await verdicts(jar.header())).toEqual(TO_THE_LINE);
    at(later + 10_000);
    await expectPeopleWaiting();
    expect(await verdicts(jar.header())).toEqual(TO_THE_LINE);
  });
});

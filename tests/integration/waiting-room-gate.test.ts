import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { refuseWithoutPass, requirePassForPage, requirePassForPurchase, waitingRoomGate } from "#server/http/gate/waiting-room-gate";
import { waitingRoomPage } from "#server/http/doors/waiting-room-door";
import { INTERNAL_HEADERS } from "#server/http/requests/internal-headers";
import { templateRenderContext } from "#server/http/cache/page-template";
import { cookiesFor } from "#server/http/requests/cookies";
import { createSession } from "#server/services/accounts/sessions";
import { saveCountdown } from "#server/services/drop/drops";
import { issuePass } from "#server/services/drop/waiting-room";
import { mockServer } from "../mocks/server";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();
const MINUTE = 60_000;
let t0 = Date.parse("2027-03-01T17:00:00.000Z");
let base = "";
let server: http.Server;

// The gate as server.js mounts it, in front of a stand-in for the page cache and Remix.
beforeAll(async () => {
  useAppContextForTests(ctx);
  const gate = waitingRoomGate(async () => ctx);
  server = http.createServer((req, res) => {
    void Promise.resolve(gate(req, res)).then((handled) => {
      if (!handled) res.end("through");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
// The stand-in server is real: msw lets requests to it through.
beforeEach(() => mockServer.use(mswHttp.all(`${base}/*`, () => passthrough())));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A new drop (a day later each time, so the gate's one-second cache never carries the last one), the clock `offsetMs` from T-0. */
async function dropAt(offsetMs: number) {
  t0 += 24 * 60 * MINUTE;
  await saveCountdown(ctx, new Date(t0).toISOString());
  ctx.clock.set(new Date(t0 + offsetMs));
}

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { redirect: "manual", headers });

describe("the gate in front of the page cache", () => {
  it("changes nothing outside the window", async () => {
    await dropAt(-16 * MINUTE);
    for (const path of ["/store", "/store/3", "/cart", "/checkout"]) expect(await (await get(path)).text(), path).toBe("through");
  });

  it("sends a visitor without a pass to /waiting-room with an uncacheable 303, for the store, a product, the bag and checkout", async () => {
    await dropAt(-MINUTE);
    for (const path of ["/store", "/store/3", "/cart", "/checkout", "/store?sort=new"]) {
      const response = await get(path);
      expect(response.status, path).toBe(303);
      expect(response.headers.get("Location")).toBe("/waiting-room");
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect(response.headers.get("Set-Cookie")).toBeNull();
    }
    // Other pages, and Remix's .data requests (their loaders judge those), go on.
    for (const path of ["/", "/about", "/countdown", "/waiting-room", "/store.data", "/store/3/reviews"]) {
      expect(await (await get(path)).text(), path).toBe("through");
    }
  });

  it("answers a purchase without a pass with 429, Retry-After and the way to the line: JSON for scripts, a page for a form", async () => {
    await dropAt(MINUTE);
    const json = await fetch(`${base}/store/3`, { method: "POST", body: "quantity=1", headers: { Accept: "application/json" } });
    expect(json.status).toBe(429);
    expect(json.headers.get("Retry-After")).toBe("5");
    expect(await json.json()).toEqual({ message: "The drop is busy. Please join the line.", waitingRoomUrl: "/waiting-room" });
    const form = await fetch(`${base}/cart`, { method: "POST", body: "intent=add", headers: { Accept: "text/html" } });
    expect(form.status).toBe(429);
    const html = await form.text();
    expect(html).toContain("The drop is busy. Please join the line.");
    expect(html).toContain('href="/waiting-room"');
  });

  it("lets a pass through without renewing it, renews it in checkout, and refuses it tampered with or expired", async () => {
    await dropAt(MINUTE);
    const { token, expiresAt } = await issuePass(ctx, { placeId: "place-id-for-the-gate-test" });
    const cookie = { Cookie: `other=1; waiting_room_pass=${encodeURIComponent(token)}` };
    const store = await get("/store", cookie);
    expect(await store.text()).toBe("through");
    expect(store.headers.get("Set-Cookie")).toBeNull();

    ctx.clock.advance(10 * MINUTE);
    const checkout = await get("/checkout", cookie);
    expect(await checkout.text()).toBe("through");
    const renewed = checkout.headers.get("Set-Cookie")!;
    expect(renewed).toMatch(/^waiting_room_pass=[^;]+; Max-Age=900; Path=\/; HttpOnly; SameSite=Lax$/);
    const renewedToken = decodeURIComponent(/^waiting_room_pass=([^;]+)/.exec(renewed)![1]!);
    expect(Number(renewedToken.split(".")[1])).toBe(expiresAt + 10 * MINUTE);

    const forged = token.replace(/\.(\d+)\./, (_, ms: string) => `.${Number(ms) + MINUTE}.`);
    expect((await get("/store", { Cookie: `waiting_room_pass=${encodeURIComponent(forged)}` })).status).toBe(303);
    ctx.clock.advance(5 * MINUTE);
    expect((await get("/store", cookie)).status).toBe(303);
  });
});

describe("an admin during the drop", () => {
  /** A browser signed in as a new user, admin or not: its Cookie header. */
  async function signedIn(isAdmin: 0 | 1): Promise<string> {
    const user = await ctx.db
      .insertInto("users")
      .values({
        username: `gate-user-${Math.random()}`,
        passwordHash: "x",
        email: "gate@example.com",
        isAdmin,
        createdAt: ctx.clock.now().toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const { token } = await createSession(ctx, user.id);
    const setCookie = await cookiesFor(ctx.config, new Request("http://localhost/")).session.serialize(token);
    return setCookie.split(";")[0]!;
  }

  it("walks past the line to the store, a product, the bag and checkout, and may buy; a shopper's sign-in or a made-up session does not", async () => {
    await dropAt(MINUTE);
    const admin = await signedIn(1);
    for (const path of ["/store", "/store/3", "/cart", "/checkout"]) {
      expect(await (await get(path, { Cookie: `cart=x; ${admin}` })).text(), path).toBe("through");
    }
    // POST /api/cart and /api/process-order (the API table asks the gate's rule).
    expect(
      await refuseWithoutPass(ctx, new Request("http://localhost/api/cart", { method: "POST", headers: { Cookie: admin } })),
    ).toBeNull();
    await expect(requirePassForPage(new Request("http://localhost/store.data", { headers: { Cookie: admin } }))).resolves.toBeUndefined();
    await expect(
      requirePassForPurchase(new Request("http://localhost/cart", { method: "POST", headers: { Cookie: admin } })),
    ).resolves.toBeUndefined();

    const shopper = await signedIn(0);
    for (const cookie of [shopper, "session=bm90LWEtdG9rZW4%3D", "session=garbage"]) {
      const response = await get("/store", { Cookie: cookie });
      expect(response.status, cookie).toBe(303);
      expect(response.headers.get("Location")).toBe("/waiting-room");
      const refused = await requirePassForPage(new Request("http://localhost/store.data", { headers: { Cookie: cookie } })).catch(
        (e: unknown) => e,
      );
      expect((refused as Response).status).toBe(303);
      expect(
        (await refuseWithoutPass(ctx, new Request("http://localhost/api/cart", { method: "POST", headers: { Cookie: cookie } })))?.status,
      ).toBe(429);
    }
  });
});

describe("the gate in the loaders and actions (.data requests, the dev server)", () => {
  it("redirects a page without a pass, lets the page cache's render for nobody through, and refuses a form post with 429", async () => {
    await dropAt(-MINUTE);
    const thrown = await requirePassForPage(new Request("http://localhost/store.data")).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(303);
    expect((thrown as Response).headers.get("Location")).toBe("/waiting-room");
    await expect(requirePassForPage(new Request("http://localhost/store"), templateRenderContext())).resolves.toBeUndefined();
    // Only the cache's own load context marks its render: no header a visitor sends does.
    for (const name of INTERNAL_HEADERS) {
      const forged = new Request("http://localhost/store", { headers: { [name]: "1" } });
      expect(((await requirePassForPage(forged, { clientIp: "192.0.2.1" }).catch((e: unknown) => e)) as Response).status, name).toBe(303);
      const purchase = new Request("http://localhost/api/cart", { method: "POST", headers: { [name]: "1" } });
      expect((await refuseWithoutPass(ctx, purchase))?.status, name).toBe(429);
    }
    // An action never sees `.data`: single fetch posts /cart.data and Remix calls the action with /cart.
    // A fetcher's post (the browser's default Accept) gets the JSON the page's clientAction reads.
    const fetcherPost = new Request("http://localhost/cart", { method: "POST", headers: { Accept: "*/*" } });
    const refused = await requirePassForPurchase(fetcherPost).catch((e: unknown) => e);
    expect((refused as Response).status).toBe(429);
    expect(await (refused as Response).json()).toEqual({
      message: "The drop is busy. Please join the line.",
      waitingRoomUrl: "/waiting-room",
    });
    // A form posted without JavaScript gets the small page with the way to the line.
    const formPost = new Request("http://localhost/cart", {
      method: "POST",
      headers: { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" },
    });
    const page = (await requirePassForPurchase(formPost).catch((e: unknown) => e)) as Response;
    expect(page.status).toBe(429);
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain('href="/waiting-room"');
  });
});

describe("the /waiting-room page", () => {
  const load = (headers: Record<string, string> = {}) =>
    waitingRoomPage({ request: new Request("http://localhost/waiting-room", { headers }), context: { clientIp: "192.0.2.9" }, params: {} });

  it("says there is no line outside the window, without a place or a redirect (a worker's older view could send the visitor back)", async () => {
    await dropAt(-20 * MINUTE);
    const page = await load();
    expect(page.data.status).toEqual({ state: "closed", position: null, ahead: null, etaSeconds: null, admittedUntil: null });
    expect(new Headers(page.init!.headers).get("Set-Cookie")).toBeNull();
  });

  it("gives a browser one place before T-0, with a place cookie, never cached", async () => {
    await dropAt(-5 * MINUTE);
    const first = await load();
    expect(first.init?.headers).toBeDefined();
    const headers = new Headers(first.init!.headers);
    expect(headers.get("Cache-Control")).toBe("private, no-store");
    const placeCookie = headers.get("Set-Cookie")!;
    expect(placeCookie).toMatch(/^waiting_room_place=[A-Za-z0-9_-]+; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(first.data.status).toEqual({ state: "before", position: null, ahead: null, etaSeconds: null, admittedUntil: null });
    const again = await load({ Cookie: placeCookie.split(";")[0]! });
    expect(new Headers(again.init!.headers).get("Set-Cookie")).toBeNull();
    const rows = await ctx.db.selectFrom("waitingRoomPlaces").select("id").where("dropAt", "=", new Date(t0).toISOString()).execute();
    expect(rows).toHaveLength(1);
  });

  it("lets an arrival straight into the store with a pass when nobody is waiting", async () => {
    await dropAt(30 * MINUTE);
    const thrown = (await load().catch((e: unknown) => e)) as Response;
    expect(thrown.status).toBe(303);
    expect(thrown.headers.get("Location")).toBe("/store");
    const cookies = thrown.headers.getSetCookie();
    expect(cookies.map((c) => c.split("=")[0])).toEqual(["waiting_room_place", "waiting_room_pass"]);
    const pass = cookies[1]!.split(";")[0]!;
    expect(await (await get("/store", { Cookie: pass })).text()).toBe("through");
  });
});

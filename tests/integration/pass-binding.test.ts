import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as cartPage from "#app/routes/cart";
import * as checkoutPage from "#app/routes/checkout";
import * as productPage from "#app/routes/store.$productId";
import type { PublicProduct } from "#server/contracts/catalog";
import { useAppContextForTests } from "#server/boot";
import { cartSessionIdOf } from "#server/http/cart-session";
import { cookiesFor } from "#server/http/requests/cookies";
import { waitingRoomGate } from "#server/http/gate/waiting-room-gate";
import { claimEarlyAccessLink } from "#server/services/drop/early-access";
import { linkToken } from "#server/services/drop/early-access-pass";
import { bindPassToBag, boundBagOf } from "#server/services/drop/pass-bindings";
import { saveCountdown } from "#server/services/drop/drops";
import { joinLine } from "#server/services/drop/waiting-room";
import { updateWaitingRoom } from "#server/services/drop/waiting-room-admin";
import { mockServer } from "../mocks/server";
import { twoWorkers } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

// Issue 21, item 4 (decision 0036): a pass is bound, at its first purchase, to the bag that buys
// with it; a copy in another browser with its own bag is sent to the line. A waiting-room pass is
// renewed no further than admission + passMinutes + the hold time; an early-access pass lives
// earlyMinutes + passMinutes + the hold time from its claim.
const { workerA: ctx, workerB } = twoWorkers();
const MINUTE = 60_000;
let t0 = Date.parse("2027-09-01T17:00:00.000Z");
let base = "";
let server: http.Server;

beforeAll(async () => {
  useAppContextForTests(ctx);
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

/** A new drop a day after the last (nothing carries over), the clock `offsetMs` from its T-0. */
async function newDrop(offsetMs: number): Promise<number> {
  t0 += 24 * 60 * MINUTE;
  await saveCountdown(ctx, new Date(t0).toISOString());
  await updateWaitingRoom(ctx, { admitPerMinute: 300, passMinutes: 15, perAddress: 1000, paused: false });
  at(t0 + offsetMs);
  return t0;
}

function at(ms: number) {
  ctx.clock.set(new Date(ms));
  workerB.clock.set(new Date(ms));
}

const customerInfo = {
  email: "buyer@example.com",
  name: "Buyer One",
  phone: "",
  street: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
};

const cookieOf = (jar: CookieJar, name: string) => new RegExp(`(?:^|; )${name}=([^;]+)`).exec(jar.header())?.[1] ?? null;
const give = (jar: CookieJar, name: string, value: string) =>
  jar.store(new Response(null, { headers: { "Set-Cookie": `${name}=${value}; Path=/` } }));

/** A browser with a bag of its own, one unit of `productId` already in it (put there before the drop, say). */
async function browserWithBag(productId: number): Promise<{ jar: CookieJar; bagId: string }> {
  const bagId = crypto.randomBytes(18).toString("base64url");
  const jar = new CookieJar();
  jar.store(
    new Response(null, { headers: { "Set-Cookie": await cookiesFor(ctx.config, new Request("http://localhost/")).cart.serialize(bagId) } }),
  );
  const now = ctx.clock.now().toISOString();
  await ctx.db.insertInto("cartItems").values({ sessionId: bagId, productId, quantity: 1, createdAt: now, updatedAt: now }).execute();
  return { jar, bagId };
}

const bagOf = async (jar: CookieJar) => cartSessionIdOf(ctx, new Request("http://localhost/", { headers: { Cookie: jar.header() } }));

const addToBag = (jar: CookieJar, productId: number) => api("POST", "/api/cart", { jar, body: { productId, quantity: 1 } });
const processOrder = (jar: CookieJar) =>
  api("POST", "/api/process-order", { jar, body: { customerInfo, shippingMethod: "usps-ground_saver" } });
const formAdd = (jar: CookieJar, productId: number) =>
  runRoute(productPage.action, { path: `/store/${productId}`, params: { productId: String(productId) }, form: { quantity: "1" }, jar });
const page = (jar: CookieJar, which: "cart" | "checkout") =>
  runRoute(which === "cart" ? cartPage.loader : checkoutPage.loader, { path: `/${which}`, jar });

/** Where the purchase doors and the purchase pages send a browser (the node gate's GET pages only read the HMAC). */
async function verdicts(jar: CookieJar, productId: number) {
  const [cart, form, order] = [
    (await addToBag(jar, productId)).status,
    (await formAdd(jar, productId)).status,
    (await processOrder(jar)).status,
  ];
  const pages = await Promise.all(
    (["cart", "checkout"] as const).map(async (which) => {
      const answer = await page(jar, which);
      return answer.status === 303 ? `303 ${answer.headers.get("Location")}` : String(answer.status);
    }),
  );
  return { cart, form, order, cartPage: pages[0], checkoutPage: pages[1] };
}

const TO_THE_LINE = { cart: 429, form: 429, order: 429, cartPage: "303 /waiting-room", checkoutPage: "303 /waiting-room" };

describe("a waiting-room pass copied to another browser", () => {
  /** A browser let in from the line a minute after T-0: its jar holds the place and the pass. */
  async function admitted(): Promise<CookieJar> {
    const jar = new CookieJar();
    expect((await api("POST", "/api/waiting-room", { jar })).status).toBe(201);
    at(t0 + MINUTE);
    const status = (await (await api("GET", "/api/waiting-room", { jar })).json()) as { state: string };
    expect(status.state).toBe("admitted");
    expect(jar.has("waiting_room_pass")).toBe(true);
    return jar;
  }

  it("belongs to the first bag that bought with it: the copy is refused at every purchase and sent to the line, the first keeps buying", async () => {
    await newDrop(-MINUTE);
    const tee = await addProduct(ctx, { name: "Line Tee", inventory: 100 });
    const first = await admitted();
    // Its first purchase makes its bag, and binds the pass to it.
    expect((await addToBag(first, tee)).status).toBe(201);
    const firstBag = (await bagOf(first))!;

    const copy = await browserWithBag(tee);
    give(copy.jar, "waiting_room_pass", cookieOf(first, "waiting_room_pass")!);
    expect(await verdicts(copy.jar, tee)).toEqual(TO_THE_LINE);
    // Nothing held for it, and its bag as it was.
    const stock = await ctx.db.selectFrom("products").select("inventory").where("id", "=", tee).executeTakeFirstOrThrow();
    expect(stock.inventory).toBe(100);
    const lines = await ctx.db.selectFrom("cartItems").select("quantity").where("sessionId", "=", copy.bagId).execute();
    expect(lines).toEqual([{ quantity: 1 }]);

    // The first browser goes on: more in the bag, its pages, and Process Order.
    expect((await addToBag(first, tee)).status).toBe(200);
    expect((await formAdd(first, tee)).status).toBe(302);
    expect((await page(first, "cart")).status).toBe(200);
    expect((await page(first, "checkout")).status).toBe(200);
    expect((await processOrder(first)).status).toBe(201);
    const rows = await ctx.db.selectFrom("passBindings").select(["pass", "bagId"]).where("pass", "like", `waiting-room:${t0}:%`).execute();
    expect(rows).toEqual([{ pass: expect.stringMatching(/^waiting-room:\d+:[A-Za-z0-9_-]+$/), bagId: firstBag }]);
  });

  it("goes to whichever of two browsers buys with it first, when both try at once", async () => {
    await newDrop(-MINUTE);
    const tee = await addProduct(ctx, { name: "Race Tee", inventory: 100 });
    const holder = await admitted();
    const pass = cookieOf(holder, "waiting_room_pass")!;
    const browsers = await Promise.all([browserWithBag(tee), browserWithBag(tee)]);
    for (const { jar } of browsers) give(jar, "waiting_room_pass", pass);
    const statuses = await Promise.all(browsers.map(({ jar }) => addToBag(jar, tee).then((r) => r.status)));
    expect([...statuses].sort()).toEqual([200, 429]);
    const winner = browsers[statuses.indexOf(200)]!;
    expect((await processOrder(winner.jar)).status).toBe(201);
    // The holder itself is another bag now: it may start one (an empty bag gains nothing), not buy with it.
    expect((await addToBag(holder, tee)).status).toBe(201);
    expect((await addToBag(holder, tee)).status).toBe(429);
    expect((await processOrder(holder)).status).toBe(429);
  });

  it("a binding written once holds for every worker: two connections binding one pass at the same moment agree on one bag", async () => {
    for (let i = 0; i < 20; i++) {
      const pass = `waiting-room:race:${i}`;
      const [a, b] = await Promise.all([bindPassToBag(ctx, pass, `bag-a-${i}`), bindPassToBag(workerB, pass, `bag-b-${i}`)]);
      expect(a !== b, `round ${i}`).toBe(true);
      const bound = a ? `bag-a-${i}` : `bag-b-${i}`;
      expect(await boundBagOf(ctx, pass)).toBe(bound);
      expect(await boundBagOf(workerB, pass)).toBe(bound);
    }
  });
});

describe("renewing a waiting-room pass in checkout", () => {
  const get = (path: string, cookie: string) => fetch(`${base}${path}`, { redirect: "manual", headers: { Cookie: cookie } });
  const passIn = (response: Response) => {
    const set = response.headers.get("Set-Cookie");
    return set ? decodeURIComponent(/^waiting_room_pass=([^;]+)/.exec(set)![1]!) : null;
  };
  const expiryOf = (token: string) => Number(token.split(".")[1]);

  it("extends it while paying, but never past admission + passMinutes + the hold time; then it runs out", async () => {
    await newDrop(-MINUTE);
    const jar = new CookieJar();
    expect((await api("POST", "/api/waiting-room", { jar })).status).toBe(201);
    const admittedAt = t0 + MINUTE;
    at(admittedAt);
    expect(((await (await api("GET", "/api/waiting-room", { jar })).json()) as { state: string }).state).toBe("admitted");
    const cap = admittedAt + (15 + ctx.config.holdMinutes) * MINUTE;
    let token = decodeURIComponent(cookieOf(jar, "waiting_room_pass")!);
    expect(expiryOf(token)).toBe(admittedAt + 15 * MINUTE);

    at(admittedAt + 5 * MINUTE);
    let checkout = await get("/checkout", `waiting_room_pass=${encodeURIComponent(token)}`);
    expect(await checkout.text()).toBe("through");
    token = passIn(checkout)!;
    expect(expiryOf(token)).toBe(admittedAt + 20 * MINUTE);

    at(admittedAt + 14 * MINUTE);
    checkout = await get("/checkout", `waiting_room_pass=${encodeURIComponent(token)}`);
    token = passIn(checkout)!;
    expect(expiryOf(token)).toBe(cap);

    // At the cap: no renewal, on /checkout or Process Order, however often the browser asks.
    at(admittedAt + 20 * MINUTE);
    for (const path of ["/checkout", "/checkout.data", "/api/process-order"]) {
      const again = await get(path, `waiting_room_pass=${encodeURIComponent(token)}`);
      expect(await again.text(), path).toBe("through");
      expect(passIn(again), path).toBeNull();
    }
    // The line's own answer does not extend it either.
    const place = `waiting_room_place=${cookieOf(jar, "waiting_room_place")}; waiting_room_pass=${encodeURIComponent(token)}`;
    const status = (await (await api("GET", "/api/waiting-room", { headers: { Cookie: place } })).json()) as { admittedUntil: string };
    expect(status.admittedUntil).toBe(new Date(cap).toISOString());

    at(cap - 1000);
    expect(await (await get("/checkout", `waiting_room_pass=${encodeURIComponent(token)}`)).text()).toBe("through");
    at(cap);
    for (const path of ["/checkout", "/store"]) {
      const over = await get(path, `waiting_room_pass=${encodeURIComponent(token)}`);
      expect(over.status, path).toBe(303);
      expect(over.headers.get("Location")).toBe("/waiting-room");
    }
  });
});

describe("an early-access pass copied to another browser", () => {
  let links = 0;
  /** A restricted product released at T-0, and a browser that claimed an early-access link `claimOffsetMs` from T-0. */
  async function claimed(claimOffsetMs: number): Promise<{ jar: CookieJar; parka: number; tee: number }> {
    at(t0 + claimOffsetMs);
    const parka = await addProduct(ctx, { name: `Early Parka ${t0}`, inventory: 20, isCountdownRestricted: 1, countdownReleaseDate: null });
    const tee = await addProduct(ctx, { name: `Early Tee ${t0}`, inventory: 100 });
    links += 1;
    const { id } = await ctx.db
      .insertInto("earlyAccessLinks")
      .values({ email: `early${links}@example.com`, createdAt: ctx.clock.now().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const { pass } = await claimEarlyAccessLink(ctx, linkToken(ctx.config.sessionSecret, id), null);
    const jar = new CookieJar();
    give(jar, "early_access", pass!);
    return { jar, parka, tee };
  }

  const names = async (jar: CookieJar) =>
    ((await (await api("GET", "/api/products", { jar })).json()) as PublicProduct[]).map((p) => p.name);

  it("before the waiting room opens: opens the drop to the first bag that buys with it, and to no other", async () => {
    await newDrop(-25 * MINUTE);
    const { jar: first, parka, tee } = await claimed(-25 * MINUTE);
    const parkaName = `Early Parka ${t0}`;
    expect((await addToBag(first, parka)).status).toBe(201);

    const copy = await browserWithBag(tee);
    give(copy.jar, "early_access", cookieOf(first, "early_access")!);
    expect(await names(copy.jar)).not.toContain(parkaName);
    expect((await addToBag(copy.jar, parka)).status).toBe(404);
    expect((await formAdd(copy.jar, parka)).status).toBe(302);
    // A parka already in its bag (put there before the pass was bound) is not sold to it either.
    const now = ctx.clock.now().toISOString();
    await ctx.db
      .insertInto("cartItems")
      .values({ sessionId: copy.bagId, productId: parka, quantity: 1, createdAt: now, updatedAt: now })
      .execute();
    expect((await processOrder(copy.jar)).status).not.toBe(201);

    expect(await names(first)).toContain(parkaName);
    expect((await processOrder(first)).status).toBe(201);
    const stock = await ctx.db.selectFrom("products").select("inventory").where("id", "=", parka).executeTakeFirstOrThrow();
    expect(stock.inventory).toBe(19);
  });

  it("in the waiting room's window: lets the first bag past the line, and sends the copy to it", async () => {
    await newDrop(-20 * MINUTE);
    const { jar: first, parka, tee } = await claimed(-20 * MINUTE);
    at(t0 - 10 * MINUTE);
    for (let i = 0; i < 5; i++) await joinLine(ctx, { placeId: null, address: `198.51.100.${i}` });
    await updateWaitingRoom(ctx, { admitPerMinute: 1 });
    at(t0 + 10_000);
    expect((await addToBag(first, parka)).status).toBe(201);

    const copy = await browserWithBag(tee);
    give(copy.jar, "early_access", cookieOf(first, "early_access")!);
    expect(await verdicts(copy.jar, tee)).toEqual(TO_THE_LINE);

    expect((await page(first, "cart")).status).toBe(200);
    expect((await processOrder(first)).status).toBe(201);
  });

  it("runs out earlyMinutes + passMinutes + the hold time after its claim, though the window is still open", async () => {
    await newDrop(-20 * MINUTE);
    const claimedAt = t0 - 20 * MINUTE;
    const { jar, tee } = await claimed(-20 * MINUTE);
    const end = claimedAt + (30 + 15 + ctx.config.holdMinutes) * MINUTE;
    at(end - 1000);
    expect((await addToBag(jar, tee)).status).toBe(201);
    expect(await (await fetch(`${base}/store`, { redirect: "manual", headers: { Cookie: jar.header() } })).text()).toBe("through");
    at(end);
    expect((await addToBag(jar, tee)).status).toBe(429);
    expect((await page(jar, "cart")).headers.get("Location")).toBe("/waiting-room");
    const store = await fetch(`${base}/store`, { redirect: "manual", headers: { Cookie: jar.header() } });
    expect(store.status).toBe(303);
  });
});

describe("answers that depend on a pass", () => {
  it("are private: a holder and a shopper without a pass, asking at once, each get their own list", async () => {
    await newDrop(-25 * MINUTE);
    // A pass claimed within earlyMinutes of a release of its own.
    const parka = await addProduct(ctx, {
      name: "Private Parka",
      inventory: 5,
      isCountdownRestricted: 1,
      countdownReleaseDate: new Date(t0).toISOString(),
    });
    const { id } = await ctx.db
      .insertInto("earlyAccessLinks")
      .values({ email: "private@example.com", createdAt: ctx.clock.now().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const { pass } = await claimEarlyAccessLink(ctx, linkToken(ctx.config.sessionSecret, id), null);
    const holder = new CookieJar();
    give(holder, "early_access", pass!);
    const stranger = new CookieJar();

    const ask = (path: string, who: "holder" | "stranger") =>
      api("GET", path, { jar: who === "holder" ? holder : stranger }).then(async (r) => ({ path, who, r, body: await r.text() }));
    const paths = ["/api/products", `/api/products/${parka}/images`];
    const asks = Array.from({ length: 6 }, () => paths.flatMap((path) => [ask(path, "holder"), ask(path, "stranger")])).flat();
    for (const { path, who, r, body } of await Promise.all(asks)) {
      if (who === "holder") {
        expect(r.status, path).toBe(200);
        expect(r.headers.get("Cache-Control"), path).toBe("private, no-store");
        if (path === "/api/products") expect(body).toContain("Private Parka");
        else expect(JSON.parse(body)).toMatchObject({ productId: parka });
      } else {
        expect(body, path).not.toContain("Private Parka");
        if (path !== "/api/products") expect(r.status).toBe(404);
      }
    }
  });
});

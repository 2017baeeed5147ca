import http from "node:http";
import type { AddressInfo } from "node:net";
import { createCookie } from "@remix-run/node";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { PublicProduct } from "#server/contracts/catalog";
import type { OrderPageView } from "#server/contracts/order-page";
import { useAppContextForTests } from "#server/boot";
import { loadConfig } from "#server/config";
import { orderPageLoader } from "#server/http/doors/order-page-door";
import { waitingRoomGate } from "#server/http/gate/waiting-room-gate";
import { cookiesFor } from "#server/http/requests/cookies";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { drawToken, entryIdOf } from "#server/services/drop/draw-links";
import { saveCountdown } from "#server/services/drop/drops";
import { claimEarlyAccessLink } from "#server/services/drop/early-access";
import { linkToken, newPass } from "#server/services/drop/early-access-pass";
import { issuePass } from "#server/services/drop/waiting-room";
import { updateWaitingRoom } from "#server/services/drop/waiting-room-admin";
import { signPass } from "#server/services/drop/waiting-room-pass";
import { forgetCachedRoom } from "#server/services/drop/waiting-room-state";
import { subscriberIdOf, unsubscribeToken } from "#server/services/mail/unsubscribe";
import { setOrderStatus } from "#server/services/orders/admin-orders";
import { pageTokenOf } from "#server/services/orders/order-page-token";
import { mockServer } from "../mocks/server";
import { createTestContext, type TestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runFulfilmentJob, runRoute } from "./store-helpers";

// Decision 0061: the store restarted with SESSION_SECRET=NEW and SESSION_SECRET_PREVIOUS=OLD keeps
// accepting what OLD signed (bags, passes, e-mailed links) and signs everything new with NEW; once
// OLD is dropped from the list, what it signed opens nothing. One database throughout, as a
// deployment's restart would keep it.
const OLD = "old-session-secret-0123456789abcdef";
const NEW = "new-session-secret-fedcba9876543210";
const UNKNOWN = "never-listed-secret-0000000000000000";
const PUBLIC_URL = "http://shop.test";

const before = createTestContext({ SESSION_SECRET: OLD, PUBLIC_URL });

/** The same store (database, data folder, clock) started again with other secrets. */
function restartedWith(env: Record<string, string>): TestContext {
  const loaded = loadConfig({ DATA_DIR: before.config.dataDir, NODE_ENV: "test", PUBLIC_URL, ...env });
  return { ...before, config: { ...loaded, database: before.config.database } };
}
const rotated = restartedWith({ SESSION_SECRET: NEW, SESSION_SECRET_PREVIOUS: OLD });
const dropped = restartedWith({ SESSION_SECRET: NEW });

// The waiting room's gate as server.js mounts it, in front of a stand-in for the page cache and
// Remix. A gate keeps the context it first reads (one per process), so a restart is a new gate.
let gate = waitingRoomGate(async () => before);
function use(ctx: TestContext) {
  useAppContextForTests(ctx);
  gate = waitingRoomGate(async () => ctx);
  forgetCachedRoom(ctx);
}

const MINUTE = 60_000;
let base = "";
let server: http.Server;

beforeAll(async () => {
  use(before);
  server = http.createServer((req, res) => {
    void Promise.resolve(gate(req, res)).then((handled) => {
      if (!handled) res.end("through");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  mockServer.use(mswHttp.all(`${base}/*`, () => passthrough()));
  use(before);
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

/** The name=value pair of a Set-Cookie. */
const pairOf = (setCookie: string) => setCookie.split(";")[0]!;

describe("the bag cookie across a rotation", () => {
  const bagCount = async (cookie: string) => {
    const response = await api("GET", "/api/cart", { headers: { Cookie: cookie } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { count: number }).count;
  };

  /** A bag with `quantity` units in the database, and its cookie signed under `secrets`, as a browser holds it. */
  async function bagSignedWith(secrets: string[], id: string, productId: number, quantity: number): Promise<string> {
    await before.db.insertInto("cartItems").values({ sessionId: id, productId, quantity }).execute();
    return pairOf(await createCookie("cart", { secrets }).serialize(id));
  }

  it("opens a bag signed under the old secret while it is listed, and never one signed under a secret not listed", async () => {
    const productId = await addProduct(before, { name: "Rotation Tee", inventory: 100 });
    // A bag filled through the API before the restart.
    const jar = new CookieJar();
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 2 }, jar })).status).toBe(201);
    expect(await bagCount(jar.header())).toBe(2);
    // A bag the store signed before the restart that this process never checked (a restarted
    // process remembers no cookie it verified).
    const unseen = pairOf(
      await cookiesFor(before.config, new Request("http://localhost/")).cart.serialize("bag-signed-before-the-restart"),
    );
    await before.db.insertInto("cartItems").values({ sessionId: "bag-signed-before-the-restart", productId, quantity: 3 }).execute();
    const stranger = await bagSignedWith([UNKNOWN], "bag-signed-by-a-stranger-key", productId, 1);

    use(rotated);
    expect(await bagCount(jar.header())).toBe(2);
    expect(await bagCount(unseen)).toBe(3);
    expect(await bagCount(stranger)).toBe(0);
    // A new bag is signed with the new secret alone.
    const fresh = new CookieJar();
    const made = await api("POST", "/api/cart", { body: { productId, quantity: 1 }, jar: fresh });
    const value = pairOf(made.headers.get("Set-Cookie")!);
    expect(await createCookie("cart", { secrets: [NEW] }).parse(value)).toEqual(expect.any(String));
    expect(await createCookie("cart", { secrets: [OLD] }).parse(value)).toBeNull();

    use(dropped);
    expect(await bagCount(jar.header())).toBe(0);
    expect(await bagCount(unseen)).toBe(0);
    expect(await bagCount(fresh.header())).toBe(1);
  });
});

describe("a secret that came with a line break around it", () => {
  const bagCount = async (cookie: string) =>
    ((await (await api("GET", "/api/cart", { headers: { Cookie: cookie } })).json()) as { count: number }).count;

  it("signs with it trimmed, so listing it as the previous secret keeps its bags; what it signed untrimmed still opens", async () => {
    const productId = await addProduct(before, { name: "Newline Tee", inventory: 100 });
    // SESSION_SECRET read from a secrets file, its last newline and all.
    const filed = restartedWith({ SESSION_SECRET: `${OLD}\n` });
    expect(filed.config.sessionSecret).toBe(OLD);
    use(filed);
    const jar = new CookieJar();
    const made = await api("POST", "/api/cart", { body: { productId, quantity: 2 }, jar });
    expect(made.status).toBe(201);
    // A bag the store signed with the newline before it trimmed its secret.
    await before.db.insertInto("cartItems").values({ sessionId: "bag-signed-with-the-newline", productId, quantity: 3 }).execute();
    const untrimmed = pairOf(await createCookie("cart", { secrets: [`${OLD}\n`] }).serialize("bag-signed-with-the-newline"));
    expect(await bagCount(untrimmed)).toBe(3);
    // A new bag is signed with the trimmed secret, never the newline.
    const value = pairOf(made.headers.get("Set-Cookie")!);
    expect(await createCookie("cart", { secrets: [OLD] }).parse(value)).toEqual(expect.any(String));
    expect(await createCookie("cart", { secrets: [`${OLD}\n`] }).parse(value)).toBeNull();

    // Rotated as docs/deploy.md says: the old value moved into the list, where it is trimmed.
    use(rotated);
    expect(await bagCount(jar.header())).toBe(2);
    use(dropped);
    expect(await bagCount(jar.header())).toBe(0);
    expect(await bagCount(untrimmed)).toBe(0);
  });
});

describe("the order page link across a rotation", () => {
  const customer = {
    email: "rita.rotation@example.com",
    name: "Rita Rotation",
    phone: "",
    street: "12 Key Lane",
    city: "Denver",
    state: "CO",
    zipCode: "80202",
    country: "US",
  };
  let productId = 0;

  async function paidOrder(ctx: TestContext, sessionId: string) {
    productId ||= await addProduct(before, { name: "Rotation Jacket", inventory: 100 });
    await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
    const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
    await confirmPayment(ctx, order.paymentIntentId);
    await runFulfilmentJob(ctx);
    return { id: order.orderSummary.orderId, number: order.orderSummary.orderNumber };
  }

  /** The order page link in the last e-mail of this kind for the order. */
  async function linkInMail(tag: string, orderNumber: string): Promise<string> {
    const mails = await before.db
      .selectFrom("mailMessages")
      .select(["textBody"])
      .where("tag", "=", tag)
      .where("subject", "like", `%#${orderNumber}%`)
      .orderBy("id", "desc")
      .execute();
    const link = /(http:\/\/shop\.test\/orders\/[A-Za-z0-9_-]{43})/.exec(mails[0]?.textBody ?? "")?.[1];
    expect(link, `${tag} for #${orderNumber} carries the order link`).toBeDefined();
    return link!;
  }

  const tokenOf = (link: string) => link.split("/orders/")[1]!;

  /** The page's answer and, through the REST door, the order it shows. */
  async function opens(link: string): Promise<{ page: number; api: number; orderNumber?: string }> {
    const token = tokenOf(link);
    const page = await runRoute<OrderPageView>(orderPageLoader, { path: `/orders/${token}`, params: { token } });
    const response = await api("GET", `/api/orders/${token}`);
    const body = (await response.json()) as { orderNumber?: string };
    expect(page.status === 200 ? page.data.orderNumber : body.orderNumber).toBe(body.orderNumber);
    return { page: page.status, api: response.status, orderNumber: body.orderNumber };
  }

  it("keeps the link e-mailed before the rotation, in every later e-mail, until the old secret is dropped", async () => {
    const order = await paidOrder(before, "rotation-order-1");
    const emailed = await linkInMail("order-confirmation", order.number);
    expect(await opens(emailed)).toEqual({ page: 200, api: 200, orderNumber: order.number });

    use(rotated);
    expect(await opens(emailed)).toEqual({ page: 200, api: 200, orderNumber: order.number });
    before.clock.advance(MINUTE);
    await setOrderStatus(rotated, order.id, "shipped");
    expect(await linkInMail("order-shipped", order.number)).toBe(emailed);
    expect(await opens(emailed)).toEqual({ page: 200, api: 200, orderNumber: order.number });

    // A new order is keyed under the new secret.
    const next = await paidOrder(rotated, "rotation-order-2");
    const nextLink = await linkInMail("order-confirmation", next.number);
    const nonce = (await before.db.selectFrom("orders").select("pageNonce").where("id", "=", next.id).executeTakeFirstOrThrow()).pageNonce!;
    expect(tokenOf(nextLink)).toBe(pageTokenOf(NEW, nonce));
    expect(await opens(nextLink)).toEqual({ page: 200, api: 200, orderNumber: next.number });

    // The old secret dropped: its link opens nothing at once, and the next e-mail carries a new one.
    use(dropped);
    expect(await opens(emailed)).toMatchObject({ page: 404, api: 404 });
    before.clock.advance(MINUTE);
    await setOrderStatus(dropped, order.id, "delivered");
    const renewed = await linkInMail("order-delivered", order.number);
    expect(renewed).not.toBe(emailed);
    expect(await opens(renewed)).toEqual({ page: 200, api: 200, orderNumber: order.number });
    expect(await opens(emailed)).toMatchObject({ page: 404, api: 404 });
    expect(await opens(nextLink)).toEqual({ page: 200, api: 200, orderNumber: next.number });
  });
});

describe("passes and e-mailed links across a rotation", () => {
  let t0 = Date.parse("2027-10-01T17:00:00.000Z");
  let links = 0;

  /** A new drop a day after the last, the clock `offsetMs` from its T-0. */
  async function newDrop(offsetMs: number) {
    t0 += 24 * 60 * MINUTE;
    await saveCountdown(before, new Date(t0).toISOString());
    await updateWaitingRoom(before, { admitPerMinute: 300, passMinutes: 15, perAddress: 1000, paused: false });
    before.clock.set(new Date(t0 + offsetMs));
    forgetCachedRoom(before);
  }

  const get = (path: string, cookie: string) => fetch(`${base}${path}`, { redirect: "manual", headers: { Cookie: cookie } });
  const verdict = async (cookie: string) => {
    const response = await get("/store", cookie);
    return response.status === 303 ? `303 ${response.headers.get("Location")}` : await response.text();
  };

  it("lets a waiting-room pass signed under the old secret through; a forged one goes to the line", async () => {
    await newDrop(MINUTE);
    const { token } = await issuePass(before, { placeId: "place-before-the-rotation" });
    const cookie = `waiting_room_pass=${encodeURIComponent(token)}`;
    expect(await verdict(cookie)).toBe("through");
    const fields = token.split(".");
    const forged = signPass(
      { ...rotated.config, sessionSecret: UNKNOWN },
      { subject: fields[0]!, expiresAt: Number(fields[1]), dropAt: Number(fields[2]), admittedAt: Number(fields[3]) },
    );
    const tampered = token.replace(/\.(\d+)\./, (_, ms: string) => `.${Number(ms) + MINUTE}.`);

    use(rotated);
    expect(await verdict(cookie)).toBe("through");
    expect(await verdict(`waiting_room_pass=${encodeURIComponent(forged)}`)).toBe("303 /waiting-room");
    expect(await verdict(`waiting_room_pass=${encodeURIComponent(tampered)}`)).toBe("303 /waiting-room");
    expect(await verdict("waiting_room_pass=not.a.pass.at.all")).toBe("303 /waiting-room");

    use(dropped);
    expect(await verdict(cookie)).toBe("303 /waiting-room");
  });

  it("opens the drop early to a pass, and claims an e-mailed link, signed under the old secret; forged ones open nothing", async () => {
    await newDrop(-25 * MINUTE);
    const parka = `Rotation Parka ${t0}`;
    await addProduct(before, { name: parka, inventory: 20, isCountdownRestricted: 1, countdownReleaseDate: null });
    const newLink = async () => {
      links += 1;
      return (
        await before.db
          .insertInto("earlyAccessLinks")
          .values({ email: `rotation${links}@example.com`, createdAt: before.clock.now().toISOString() })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    };
    const claimedId = await newLink();
    const { pass } = await claimEarlyAccessLink(before, linkToken(OLD, claimedId), null);
    const mailedId = await newLink();
    const mailed = linkToken(OLD, mailedId);
    const names = async (cookie: string) =>
      ((await (await api("GET", "/api/products", { headers: { Cookie: cookie } })).json()) as PublicProduct[]).map((p) => p.name);
    expect(await names(`early_access=${pass}`)).toContain(parka);

    use(rotated);
    expect(await names(`early_access=${pass}`)).toContain(parka);
    expect(await names(`early_access=${newPass(UNKNOWN, claimedId).value}`)).not.toContain(parka);
    expect(await names("early_access=1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).not.toContain(parka);
    // The link e-mailed before the rotation is claimed after it, and its pass is made under the new secret.
    const claimed = await claimEarlyAccessLink(rotated, mailed, null);
    expect(await names(`early_access=${claimed.pass}`)).toContain(parka);
    await expect(claimEarlyAccessLink(rotated, linkToken(UNKNOWN, await newLink()), null)).rejects.toThrow();

    use(dropped);
    expect(await names(`early_access=${pass}`)).not.toContain(parka);
    expect(await names(`early_access=${claimed.pass}`)).toContain(parka);
  });

  it("reads unsubscribe and draw links signed under the old secret while it is listed", async () => {
    const old = { ...before, config: before.config };
    const subscriberId = 41;
    const unsubscribe = unsubscribeToken(old, subscriberId);
    expect(subscriberIdOf(rotated, unsubscribe)).toBe(subscriberId);
    expect(
      subscriberIdOf(rotated, unsubscribeToken({ ...rotated, config: { ...rotated.config, sessionSecret: UNKNOWN } }, subscriberId)),
    ).toBeNull();
    expect(subscriberIdOf(dropped, unsubscribe)).toBeNull();
    // New links are the new secret's.
    expect(subscriberIdOf(dropped, unsubscribeToken(rotated, subscriberId))).toBe(subscriberId);

    for (const kind of ["confirm", "claim"] as const) {
      const token = drawToken(OLD, kind, 7);
      expect(entryIdOf(rotated.config, kind, token)).toBe(7);
      expect(entryIdOf(rotated.config, kind === "confirm" ? "claim" : "confirm", token)).toBeNull();
      expect(entryIdOf(rotated.config, kind, drawToken(UNKNOWN, kind, 7))).toBeNull();
      expect(entryIdOf(dropped.config, kind, token)).toBeNull();
    }
    // Nothing malformed throws.
    for (const junk of [null, undefined, "", "7.", ".", "7.%%%", `7.${"A".repeat(43)}`, "x".repeat(5000)]) {
      expect(subscriberIdOf(rotated, junk)).toBeNull();
      expect(entryIdOf(rotated.config, "claim", junk)).toBeNull();
    }
  });
});

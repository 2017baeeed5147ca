// Issue 14 part 4 (decision 0025): the events behind the funnel, recorded by the server, rolled
// up per hour and compacted after 30 days. Every figure is checked against events and orders this
// file made itself.
import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "../../server/boot";
import { countPageView } from "../../server/http/page-view-door";
import { getCheckoutBag } from "../../server/services/cart";
import { rollUpEvents } from "../../server/services/event-rollup";
import { flushEvents, recordEvent, sessionKeyOf } from "../../server/services/events";
import { pageKindOf, recordPageView, sessionIdOf, type PageRequest } from "../../server/services/page-views";
import { funnelFor } from "../../server/services/reports/funnel";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct } from "./store-helpers";

const ctx = createTestContext();
beforeAll(() => useAppContextForTests(ctx));

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const view = (path: string, extra: Partial<PageRequest> = {}): PageRequest => ({
  method: "GET",
  path,
  host: "shop.example",
  cookie: undefined,
  referer: undefined,
  userAgent: CHROME,
  purpose: undefined,
  ...extra,
});

const rawEvents = async (from: string, to: string) =>
  ctx.db.selectFrom("events").selectAll().where("occurredAt", ">=", from).where("occurredAt", "<", to).orderBy("id").execute();

describe("page kinds", () => {
  it("names the store's pages, their data requests, and nothing else", () => {
    expect(pageKindOf("/")).toBe("home");
    expect(pageKindOf("/_root.data")).toBe("home");
    expect(pageKindOf("/store?sort=new")).toBe("store");
    expect(pageKindOf("/store/12.data")).toBe("product");
    expect(pageKindOf("/checkout")).toBe("checkout");
    expect(pageKindOf("/cart/")).toBe("cart");
    for (const notAPage of ["/admin", "/admin/orders", "/api/products", "/assets/x.js", "/favicon.ico", "/uploads/a.png", "/nope"]) {
      expect(pageKindOf(notAPage)).toBeNull();
    }
  });
});

describe("recording", () => {
  it("keeps a keyed hash of the bag's session, never the id or an address, and links views to bag adds", async () => {
    ctx.clock.set("2026-05-02T15:10:00.000Z");
    const productId = await addProduct(ctx, { name: "Events Tee", inventory: 20 });
    const jar = new CookieJar();
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 1 }, jar, ip: "198.51.100.23" })).status).toBe(201);
    const sessionId = sessionIdOf(jar.header());
    expect(sessionId).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    recordPageView(ctx, view(`/store/${productId}`, { cookie: jar.header() }));
    await flushEvents(ctx);
    const rows = await rawEvents("2026-05-02T15:00:00.000Z", "2026-05-02T16:00:00.000Z");
    expect(rows.map((r) => [r.kind, r.pageKind, r.productId])).toEqual([
      ["bag_add", null, productId],
      ["view", "product", productId],
    ]);
    expect(rows[0]!.sessionKey).toBe(sessionKeyOf(ctx, sessionId!));
    expect(rows[1]!.sessionKey).toBe(rows[0]!.sessionKey);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(sessionId!);
    expect(stored).not.toContain("198.51.100.23");
  });

  it("counts a cookieless visit by its first page, and leaves out prefetches, bots, HEAD and the back office", async () => {
    ctx.clock.set("2026-05-03T15:10:00.000Z");
    recordPageView(ctx, view("/")); // typed in: an entry
    recordPageView(ctx, view("/store", { referer: "https://shop.example/" })); // a click inside the store
    recordPageView(ctx, view("/store", { referer: "https://instagram.com/legacy" })); // from a link: an entry
    recordPageView(ctx, view("/store", { purpose: "prefetch" }));
    recordPageView(ctx, view("/store", { userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)" }));
    recordPageView(ctx, view("/store", { method: "HEAD" }));
    recordPageView(ctx, view("/admin/orders"));
    await flushEvents(ctx);
    const rows = await rawEvents("2026-05-03T15:00:00.000Z", "2026-05-03T16:00:00.000Z");
    expect(rows.map((r) => [r.pageKind, r.sessionKey, r.isEntry])).toEqual([
      ["home", null, 1],
      ["store", null, 0],
      ["store", null, 1],
    ]);
  });

  it("records a page served ahead of Express from node:http's own request", async () => {
    ctx.clock.set("2026-05-04T15:10:00.000Z");
    countPageView(ctx, {
      method: "GET",
      url: "/about",
      headers: { host: "shop.example", "user-agent": CHROME },
    } as never);
    await flushEvents(ctx);
    const rows = await rawEvents("2026-05-04T15:00:00.000Z", "2026-05-04T16:00:00.000Z");
    expect(rows.map((r) => [r.kind, r.pageKind, r.isEntry])).toEqual([["view", "about", 1]]);
  });

  it("writes a queued event within a second without being asked", async () => {
    ctx.clock.set("2026-05-05T15:10:00.000Z");
    recordEvent(ctx, { kind: "view", pageKind: "home" });
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await rawEvents("2026-05-05T15:00:00.000Z", "2026-05-05T16:00:00.000Z")).toHaveLength(1);
  });

  it("counts a checkout view only when the bag holds something", async () => {
    ctx.clock.set("2026-05-06T15:10:00.000Z");
    const productId = await addProduct(ctx, { name: "Checkout Tee", inventory: 5 });
    await getCheckoutBag(ctx, "empty-bag-session-0001");
    await ctx.db.insertInto("cartItems").values({ sessionId: "full-bag-session-00001", productId, quantity: 1 }).execute();
    await getCheckoutBag(ctx, "full-bag-session-00001");
    await flushEvents(ctx);
    const rows = await rawEvents("2026-05-06T15:00:00.000Z", "2026-05-06T16:00:00.000Z");
    expect(rows.map((r) => [r.kind, r.sessionKey])).toEqual([["checkout_view", sessionKeyOf(ctx, "full-bag-session-00001")]]);
  });
});

describe("roll-ups and the funnel", () => {
  // 2026-04-10 is a Friday in New York (EDT, UTC-4): the store day runs 04:00Z to 04:00Z next day.
  const at = (time: string) => new Date(`2026-04-10T${time}Z`);

  it("counts sessions once a store day, cookieless visits by their entries, and bag and checkout sessions", async () => {
    ctx.clock.set("2026-04-11T12:00:00.000Z");
    const e = (kind: "view" | "bag_add" | "checkout_view", time: string, sessionId: string | null, entry = false) =>
      recordEvent(ctx, { kind, pageKind: kind === "view" ? "store" : null, sessionId, entry, at: at(time) });
    // Session A: views in two hours, bags twice, reaches checkout.
    e("view", "14:05:00.000", "session-aaaaaaaaaaaa");
    e("view", "15:30:00.000", "session-aaaaaaaaaaaa");
    e("bag_add", "15:31:00.000", "session-aaaaaaaaaaaa");
    e("bag_add", "15:32:00.000", "session-aaaaaaaaaaaa");
    e("checkout_view", "15:40:00.000", "session-aaaaaaaaaaaa");
    // Session B: one view, one bag add.
    e("view", "15:00:00.000", "session-bbbbbbbbbbbb");
    e("bag_add", "15:01:00.000", "session-bbbbbbbbbbbb");
    // Three cookieless visits (entries), one of them with a second page.
    e("view", "14:10:00.000", null, true);
    e("view", "14:11:00.000", null, false);
    e("view", "16:00:00.000", null, true);
    e("view", "16:20:00.000", null, true);
    // Next store day (after 04:00Z on the 11th): session A again, counted again that day.
    e("view", "23:59:00.000", "session-aaaaaaaaaaaa");
    recordEvent(ctx, { kind: "view", pageKind: "store", sessionId: "session-aaaaaaaaaaaa", at: new Date("2026-04-11T05:00:00.000Z") });
    await flushEvents(ctx);
    await rollUpEvents(ctx);

    const day = { from: "2026-04-10T04:00:00.000Z", to: "2026-04-11T04:00:00.000Z" };
    expect(await funnelFor(ctx, day)).toEqual({ visitors: 5, bagged: 2, checkout: 1, ordered: 0, paid: 0 });
    const hours = await ctx.db
      .selectFrom("eventHours")
      .select(["hour", "metric", "count"])
      .where("hour", ">=", day.from)
      .where("hour", "<", day.to)
      .where("metric", "in", ["visitors", "views", "views:store", "bag_adds"])
      .orderBy("hour")
      .orderBy("metric")
      .execute();
    expect(hours).toEqual([
      { hour: "2026-04-10T14:00:00.000Z", metric: "views", count: 3 },
      { hour: "2026-04-10T14:00:00.000Z", metric: "views:store", count: 3 },
      { hour: "2026-04-10T14:00:00.000Z", metric: "visitors", count: 2 },
      { hour: "2026-04-10T15:00:00.000Z", metric: "bag_adds", count: 3 },
      { hour: "2026-04-10T15:00:00.000Z", metric: "views", count: 2 },
      { hour: "2026-04-10T15:00:00.000Z", metric: "views:store", count: 2 },
      { hour: "2026-04-10T15:00:00.000Z", metric: "visitors", count: 1 },
      { hour: "2026-04-10T16:00:00.000Z", metric: "views", count: 2 },
      { hour: "2026-04-10T16:00:00.000Z", metric: "views:store", count: 2 },
      { hour: "2026-04-10T16:00:00.000Z", metric: "visitors", count: 2 },
      { hour: "2026-04-10T23:00:00.000Z", metric: "views", count: 1 },
      { hour: "2026-04-10T23:00:00.000Z", metric: "views:store", count: 1 },
    ]);
    const twoDays = { from: day.from, to: "2026-04-12T04:00:00.000Z" };
    expect((await funnelFor(ctx, twoDays)).visitors).toBe(6);

    // A late batch for the same day is counted once, on top: a recount, not a second addition.
    recordEvent(ctx, { kind: "view", pageKind: "home", sessionId: "session-cccccccccccc", at: at("18:00:00.000") });
    await flushEvents(ctx);
    await rollUpEvents(ctx);
    await rollUpEvents(ctx);
    expect(await funnelFor(ctx, day)).toEqual({ visitors: 6, bagged: 2, checkout: 1, ordered: 0, paid: 0 });
  });

  it("keeps the orders' hours when a late event recounts a day", async () => {
    // 2026-07-25 ended days ago: its order hours are rolled up (order-rollup.ts, which goes back
    // three days only), then one late event makes the events' roll-up recount the day whole.
    ctx.clock.set("2026-07-29T12:00:00.000Z");
    await ctx.db.insertInto("eventHours").values({ hour: "2026-07-25T14:00:00.000Z", metric: "orders:placed", count: 2 }).execute();
    recordEvent(ctx, { kind: "view", pageKind: "store", entry: true, at: new Date("2026-07-25T14:10:00.000Z") });
    await flushEvents(ctx);
    await rollUpEvents(ctx);
    const hours = await ctx.db
      .selectFrom("eventHours")
      .select(["metric", "count"])
      .where("hour", "=", "2026-07-25T14:00:00.000Z")
      .orderBy("metric")
      .execute();
    expect(hours).toEqual([
      { metric: "entries", count: 1 },
      { metric: "orders:placed", count: 2 },
      { metric: "views", count: 1 },
      { metric: "views:store", count: 1 },
      { metric: "visitors", count: 1 },
    ]);
  });

  it("compacts raw events older than 30 days into the roll-ups and keeps the totals", async () => {
    ctx.clock.set("2026-03-01T12:00:00.000Z");
    const old = (time: string) => new Date(`2026-03-01T${time}Z`);
    for (let i = 0; i < 7; i += 1)
      recordEvent(ctx, { kind: "view", pageKind: "store", sessionId: `old-session-${i}-aaaaaa`, at: old("15:00:00.000") });
    recordEvent(ctx, { kind: "bag_add", sessionId: "old-session-1-aaaaaa", at: old("15:05:00.000") });
    recordEvent(ctx, { kind: "view", pageKind: "home", entry: true, at: old("16:00:00.000") });
    await flushEvents(ctx);
    await rollUpEvents(ctx);
    const range = { from: "2026-03-01T05:00:00.000Z", to: "2026-03-02T05:00:00.000Z" };
    const before = await funnelFor(ctx, range);
    expect(before).toEqual({ visitors: 8, bagged: 1, checkout: 0, ordered: 0, paid: 0 });

    // 31 days later the sweeper's roll-up deletes the raw events of that day; the figures stay.
    ctx.clock.set("2026-04-01T12:00:00.000Z");
    const { compacted } = await rollUpEvents(ctx);
    expect(compacted).toBeGreaterThanOrEqual(9);
    expect(await rawEvents(range.from, range.to)).toHaveLength(0);
    expect(await funnelFor(ctx, range)).toEqual(before);

    // An event that arrives for that day afterwards is added, not counted over the old figures.
    recordEvent(ctx, { kind: "view", pageKind: "home", entry: true, at: old("17:00:00.000") });
    await flushEvents(ctx);
    await rollUpEvents(ctx);
    expect(await funnelFor(ctx, range)).toEqual({ ...before, visitors: 9 });
  });
});

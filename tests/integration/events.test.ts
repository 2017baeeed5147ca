// Issue 14 part 4 (decision 0025): the events behind the funnel, recorded by the server, rolled
// up per hour and compacted after 30 days. Every figure is checked against events and orders this
// file made itself.
import { beforeAll, describe, expect, it } from "vitest";
import type { EventKind } from "#db/schema";
import { useAppContextForTests } from "#server/boot";
import { countPageView, sessionIdOf } from "#server/http/doors/page-view-door";
import { payLocalIntent } from "#server/integrations/payments/local";
import { getCheckoutBag } from "#server/services/cart/cart";
import { rollUpEvents, type RollUpResult } from "#server/services/reporting/event-rollup";
import { flushEvents, recordEvent, sessionKeyOf } from "#server/services/reporting/events";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { pageKindOf, recordPageView, type PageRequest } from "#server/services/reporting/page-views";
import { funnelFor } from "#server/services/reporting/funnel";
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
  sessionId: null,
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
    countPageView(ctx, {
      method: "GET",
      url: `/store/${productId}`,
      headers: { host: "shop.example", cookie: jar.header(), "user-agent": CHROME },
    } as never);
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

  it("records one order and one payment event for a paid order, never the buyer's address or e-mail", async () => {
    ctx.clock.set("2026-05-07T15:10:00.000Z");
    const productId = await addProduct(ctx, { name: "Paid Events Tee", inventory: 5 });
    const ip = "198.51.100.77";
    const jar = new CookieJar();
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 1 }, jar, ip })).status).toBe(201);
    const sessionId = sessionIdOf(jar.header())!;
    const customerInfo = {
      email: "events-buyer@example.com",
      name: "Eve Entsbuyer",
      phone: "",
      street: "7 Funnel Street",
      city: "Albany",
      state: "NY",
      zipCode: "12207",
      country: "US",
    };
    const placed = await api("POST", "/api/process-order", {
      jar,
      ip,
      body: { customerInfo, shippingMethod: "usps-ground_saver", shippingCost: 5.95 },
    });
    expect(placed.status).toBe(201);
    const { clientSecret, paymentIntentId, orderSummary } = await placed.json();
    const orderId: number = orderSummary.orderId;
    await payLocalIntent(ctx, { clientSecret, cardNumber: "4242 4242 4242 4242" });
    // The buyer's confirm and the webhook arrive together, and the success page asks again later:
    // the order is paid once, and its payment counted once.
    const outcomes = await Promise.all([
      api("POST", "/api/confirm-order", { body: { paymentIntentId }, jar, ip }).then((r) => r.json()),
      confirmPayment(ctx, paymentIntentId),
      confirmPayment(ctx, paymentIntentId),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["paid", "paid", "paid"]);
    expect(outcomes.filter((o) => o.firstTime)).toHaveLength(1);
    expect(await confirmPayment(ctx, paymentIntentId)).toMatchObject({ status: "paid", firstTime: false });
    await flushEvents(ctx);

    const rows = await rawEvents("2026-05-07T15:00:00.000Z", "2026-05-07T16:00:00.000Z");
    expect(rows.filter((r) => r.orderId === orderId).map((r) => [r.kind, r.orderId, r.sessionKey])).toEqual([
      ["order", orderId, sessionKeyOf(ctx, sessionId)],
      ["payment", orderId, null],
    ]);
    expect(rows.filter((r) => r.kind === "order" || r.kind === "payment")).toHaveLength(2);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(ip);
    expect(stored).not.toContain(sessionId);
    expect(stored).not.toContain(customerInfo.email);
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

describe("incremental roll-ups (decision 0034)", () => {
  /** An event as this file makes it, and what a from-scratch count of its day must say (the definitions of decision 0025). */
  interface Made {
    kind: EventKind;
    at: string;
    session?: string;
    pageKind?: string;
    entry?: boolean;
  }
  const made: Made[] = [];
  const make = (...events: Made[]) => {
    for (const e of events) {
      made.push(e);
      recordEvent(ctx, { kind: e.kind, pageKind: e.pageKind ?? null, sessionId: e.session ?? null, entry: e.entry, at: new Date(e.at) });
    }
    return flushEvents(ctx);
  };
  const EACH: Partial<Record<EventKind, string>> = {
    bag_add: "bag_adds",
    checkout_view: "checkout_views",
    order: "orders",
    payment: "payments",
  };
  function expectedHours(events: Made[]) {
    const counts = new Map<string, number>();
    const bump = (at: string, metric: string) => {
      const key = `${at.slice(0, 13)}:00:00.000Z|${metric}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    };
    const firsts = new Map<string, string>();
    const first = (metric: string, session: string, at: string) => {
      const key = `${metric}|${session}`;
      if (!firsts.has(key) || at < firsts.get(key)!) firsts.set(key, at);
    };
    for (const e of events) {
      if (e.kind === "view") {
        bump(e.at, "views");
        bump(e.at, `views:${e.pageKind}`);
        if (e.entry && !e.session) ["entries", "visitors"].forEach((metric) => bump(e.at, metric));
      } else bump(e.at, EACH[e.kind]!);
      if (!e.session || !["view", "bag_add", "checkout_view"].includes(e.kind)) continue;
      first("visitors", e.session, e.at);
      if (e.kind === "bag_add") first("bagged", e.session, e.at);
      if (e.kind === "checkout_view") first("checkout_sessions", e.session, e.at);
    }
    for (const [key, at] of firsts) bump(at, key.split("|")[0]!);
    return [...counts]
      .map(([key, count]) => ({ hour: key.split("|")[0]!, metric: key.split("|")[1]!, count }))
      .sort((a, b) => (a.hour === b.hour ? (a.metric < b.metric ? -1 : 1) : a.hour < b.hour ? -1 : 1));
  }
  const hoursOf = (day: { from: string; to: string }) =>
    ctx.db
      .selectFrom("eventHours")
      .select(["hour", "metric", "count"])
      .where("hour", ">=", day.from)
      .where("hour", "<", day.to)
      .orderBy("hour")
      .orderBy("metric")
      .execute();
  const keptSessions = async (day: string) =>
    (await ctx.db.selectFrom("eventSessions").select("sessionKey").where("day", "=", day).execute()).length;

  it("adds each run's events to today's hours, exactly as a whole recount of the day counts them", async () => {
    // 2026-07-15 is a Wednesday in New York (EDT): the store day runs 04:00Z to 04:00Z next day.
    const day = { from: "2026-07-15T04:00:00.000Z", to: "2026-07-16T04:00:00.000Z" };
    const t = (time: string) => `2026-07-15T${time}:00.000Z`;
    const steps: { clock: string; events: Made[] }[] = [
      {
        // The day's first run counts it whole and keeps its sessions; every later run only adds.
        clock: t("16:00"),
        events: [
          { kind: "view", pageKind: "store", session: "incr-session-a", at: t("14:05") },
          { kind: "view", pageKind: "product", session: "incr-session-a", at: t("14:20") },
          { kind: "view", pageKind: "home", entry: true, at: t("14:30") },
          { kind: "view", pageKind: "store", at: t("14:31") },
          { kind: "bag_add", session: "incr-session-b", at: t("15:10") },
          { kind: "order", session: "incr-session-a", at: t("15:50") },
          { kind: "payment", at: t("15:55") },
        ],
      },
      {
        clock: t("17:00"),
        events: [
          { kind: "view", pageKind: "store", session: "incr-session-a", at: t("14:50") }, // seen before, same hour
          { kind: "bag_add", session: "incr-session-a", at: t("16:10") }, // A's first bag add
          { kind: "view", pageKind: "product", session: "incr-session-b", at: t("16:15") }, // seen before, an hour earlier
          { kind: "view", pageKind: "home", session: "incr-session-c", at: t("16:20") },
          { kind: "checkout_view", session: "incr-session-c", at: t("16:25") },
          { kind: "view", pageKind: "home", entry: true, at: t("16:40") },
        ],
      },
      {
        clock: t("18:00"),
        events: [
          { kind: "bag_add", session: "incr-session-a", at: t("17:05") },
          { kind: "checkout_view", session: "incr-session-b", at: t("17:10") },
          { kind: "view", pageKind: "store", session: "incr-session-c", at: t("17:20") },
          { kind: "bag_add", session: "incr-session-d", at: t("17:30") }, // first seen by a bag add
          // Late (a batch retried), from earlier hours: C first visited at 15, A first bagged at 15.
          { kind: "view", pageKind: "store", session: "incr-session-c", at: t("15:30") },
          { kind: "bag_add", session: "incr-session-a", at: t("15:40") },
        ],
      },
      {
        clock: t("18:30"),
        events: [
          { kind: "view", pageKind: "home", session: "incr-session-b", at: t("15:05") }, // late, earlier, same hour
          { kind: "view", pageKind: "store", session: "incr-session-e", at: t("17:59") },
        ],
      },
      {
        clock: t("19:00"),
        events: [
          { kind: "view", pageKind: "store", session: "incr-session-e", at: t("18:01") }, // the next hour
          { kind: "checkout_view", session: "incr-session-c", at: t("16:05") }, // late, earlier, same hour
        ],
      },
    ];
    for (const [i, step] of steps.entries()) {
      ctx.clock.set(step.clock);
      await make(...step.events);
      // Step 3: two leaders at once (a lease lost and taken over mid-run): the new events are added once.
      if (i === 2) await Promise.all([rollUpEvents(ctx), rollUpEvents(ctx)]);
      else await rollUpEvents(ctx);
      expect([i, await hoursOf(day)]).toEqual([i, expectedHours(made)]);
    }
    const h = (time: string) => `2026-07-15T${time}:00:00.000Z`;
    const added = await hoursOf(day);
    expect(added).toEqual([
      { hour: h("14"), metric: "entries", count: 1 },
      { hour: h("14"), metric: "views", count: 5 },
      { hour: h("14"), metric: "views:home", count: 1 },
      { hour: h("14"), metric: "views:product", count: 1 },
      { hour: h("14"), metric: "views:store", count: 3 },
      { hour: h("14"), metric: "visitors", count: 2 }, // A and the first entry
      { hour: h("15"), metric: "bag_adds", count: 2 },
      { hour: h("15"), metric: "bagged", count: 2 }, // B, and A moved here from 16 by its late bag add
      { hour: h("15"), metric: "orders", count: 1 },
      { hour: h("15"), metric: "payments", count: 1 },
      { hour: h("15"), metric: "views", count: 2 },
      { hour: h("15"), metric: "views:home", count: 1 },
      { hour: h("15"), metric: "views:store", count: 1 },
      { hour: h("15"), metric: "visitors", count: 2 }, // B, and C moved here from 16 by its late view
      { hour: h("16"), metric: "bag_adds", count: 1 },
      { hour: h("16"), metric: "checkout_sessions", count: 1 }, // C
      { hour: h("16"), metric: "checkout_views", count: 2 },
      { hour: h("16"), metric: "entries", count: 1 },
      { hour: h("16"), metric: "views", count: 3 },
      { hour: h("16"), metric: "views:home", count: 2 },
      { hour: h("16"), metric: "views:product", count: 1 },
      { hour: h("16"), metric: "visitors", count: 1 }, // the second entry
      { hour: h("17"), metric: "bag_adds", count: 2 },
      { hour: h("17"), metric: "bagged", count: 1 }, // D
      { hour: h("17"), metric: "checkout_sessions", count: 1 }, // B
      { hour: h("17"), metric: "checkout_views", count: 1 },
      { hour: h("17"), metric: "views", count: 2 },
      { hour: h("17"), metric: "views:store", count: 2 },
      { hour: h("17"), metric: "visitors", count: 2 }, // D and E
      { hour: h("18"), metric: "views", count: 1 },
      { hour: h("18"), metric: "views:store", count: 1 },
    ]);
    expect(await funnelFor(ctx, day)).toEqual({ visitors: 7, bagged: 3, checkout: 2, ordered: 0, paid: 0 });
    expect(await keptSessions("2026-07-15")).toBe(5 + 1); // A to E, and the row saying they are all there

    // Once the day has ended and settled, it is recounted whole: the same rows, and its sessions forgotten.
    ctx.clock.set("2026-07-16T04:06:00.000Z");
    await rollUpEvents(ctx);
    expect(await hoursOf(day)).toEqual(added);
    expect(await keptSessions("2026-07-15")).toBe(0);
  });

  it("never puts back an older count of a past day when a second leader ran in the middle of the first's run", async () => {
    // 2026-08-03 and 04 (EDT), both ended: each is recounted whole. Leader A counts the 3rd, then,
    // before it reaches the 4th, leader B (a lease lost and taken over) counts a late event for the
    // 3rd too. A's count of the 3rd, older than B's, must not be the one that stays.
    const third = { from: "2026-08-03T04:00:00.000Z", to: "2026-08-04T04:00:00.000Z" };
    const onThird: Made[] = [
      { kind: "view", pageKind: "store", session: "overlap-session-a", at: "2026-08-03T14:00:00.000Z" },
      { kind: "bag_add", session: "overlap-session-a", at: "2026-08-03T14:10:00.000Z" },
    ];
    const late: Made = { kind: "view", pageKind: "home", session: "overlap-session-b", at: "2026-08-03T16:00:00.000Z" };
    ctx.clock.set("2026-08-06T12:00:00.000Z");
    await make(...onThird, { kind: "view", pageKind: "store", session: "overlap-session-c", at: "2026-08-04T15:00:00.000Z" });
    let calls = 0;
    let secondLeader: RollUpResult | null = null;
    const first = await rollUpEvents(ctx, async () => {
      calls += 1;
      if (calls === 2) {
        await make(late);
        secondLeader = await rollUpEvents(ctx);
      }
      return true;
    });
    expect(secondLeader).toMatchObject({ days: 2 });
    expect(first.days).toBe(0); // A found the mark moved and wrote nothing
    expect(await hoursOf(third)).toEqual(expectedHours([...onThird, late]));
  });

  it("counts an event whose id a run passed before it was committed when its day is recounted after it settled", async () => {
    // 2026-07-20, a Monday (EDT). On PostgreSQL a batch can take an id, and another batch a higher
    // one and commit first; a run that counts up to the higher id never sees the lower. The row
    // below stands for that batch: it has its id before the run and becomes an event after it.
    const day = { from: "2026-07-20T04:00:00.000Z", to: "2026-07-21T04:00:00.000Z" };
    const t = (time: string) => `2026-07-20T${time}:00.000Z`;
    ctx.clock.set(t("15:00"));
    const before = made.length;
    await make(
      { kind: "view", pageKind: "store", session: "late-session-f", at: t("13:00") },
      { kind: "view", pageKind: "home", entry: true, at: t("13:10") },
    );
    const { id } = await ctx.db
      .insertInto("events")
      .values({
        kind: "not-yet" as EventKind,
        pageKind: null,
        sessionKey: null,
        isEntry: 0,
        productId: null,
        orderId: null,
        occurredAt: t("12:30"),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await rollUpEvents(ctx);
    const committedLate: Made = { kind: "view", pageKind: "store", session: "late-session-g", at: t("12:30") };
    await ctx.db
      .updateTable("events")
      .set({ kind: "view", pageKind: "store", sessionKey: sessionKeyOf(ctx, "late-session-g") })
      .where("id", "=", id)
      .execute();
    ctx.clock.set(t("15:30"));
    await make({ kind: "bag_add", session: "late-session-f", at: t("14:00") });
    await rollUpEvents(ctx);
    const counted = made.slice(before);
    expect(await hoursOf(day)).toEqual(expectedHours(counted));

    // Just after midnight the day is still added to (its last batches may be on their way); once
    // it has settled, it is recounted whole, with no new event needed, and the late one is in.
    ctx.clock.set("2026-07-21T04:02:00.000Z");
    await rollUpEvents(ctx);
    expect(await hoursOf(day)).toEqual(expectedHours(counted));
    ctx.clock.set("2026-07-21T04:06:00.000Z");
    await rollUpEvents(ctx);
    expect(await hoursOf(day)).toEqual(expectedHours([...counted, committedLate]));
    expect((await hoursOf(day)).find((row) => row.hour === "2026-07-20T12:00:00.000Z" && row.metric === "visitors")?.count).toBe(1);

    // A batch for that day written later still (new ids, an earlier hour) recounts it whole again.
    const later: Made = { kind: "bag_add", session: "late-session-h", at: t("11:00") };
    await make(later);
    await rollUpEvents(ctx);
    expect(await hoursOf(day)).toEqual(expectedHours([...counted, committedLate, later]));
  });
});

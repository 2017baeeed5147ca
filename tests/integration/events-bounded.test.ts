// Issue 21, item 7 (decision 0040): the events table is open to strangers, so what they can put
// in it is bounded: ids out of range are not kept, a refused row never holds up the others, a
// session's views of a page count once a minute, cookieless views are counts written once a
// minute, and past a ceiling a minute a process drops events and says how many (the dashboard).
import { sql } from "kysely";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isPostgres } from "#db/engine";
import { useAppContextForTests } from "#server/boot";
import { getDashboard } from "#server/services/reporting/dashboard";
import { rollUpEvents } from "#server/services/reporting/event-rollup";
import { COUNTS_EVERY_MS, EVENTS_PER_MINUTE, flushEvents, recordEvent } from "#server/services/reporting/events";
import { cartCookiesKept, sessionIdOf } from "#server/http/doors/page-view-door";
import { recordPageView, type PageRequest } from "#server/services/reporting/page-views";
import { createTestContext } from "../setup/context";
import { expectLoggedErrors } from "../setup/log-capture";

const ctx = createTestContext();
beforeAll(() => useAppContextForTests(ctx));
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
/** A signed-looking bag cookie for a session id (the fast path reads the id without the signature). */
const bag = (id: string) => `cart=${encodeURIComponent(`${Buffer.from(JSON.stringify(id)).toString("base64")}.sig`)}`;
const view = (path: string, { cookie, ...extra }: Partial<PageRequest> & { cookie?: string } = {}): PageRequest => ({
  method: "GET",
  path,
  host: "shop.example",
  sessionId: sessionIdOf(cookie),
  referer: "https://shop.example/",
  userAgent: CHROME,
  purpose: undefined,
  ...extra,
});

const rowsIn = (from: string, to: string) =>
  ctx.db
    .selectFrom("events")
    .select(["kind", "pageKind", "sessionKey", "isEntry", "productId", "count"])
    .where("occurredAt", ">=", from)
    .where("occurredAt", "<", to)
    .orderBy("id")
    .execute();

describe("events from strangers", () => {
  it("keeps a view of /store/99999999999 (no product id) and every view beside it", async () => {
    ctx.clock.set("2026-08-01T15:10:00.000Z");
    const cookie = bag("range-check-session-0001");
    recordPageView(ctx, view("/store/99999999999", { cookie }));
    recordPageView(ctx, view("/store/2147483648", { cookie }));
    recordPageView(ctx, view("/store/2147483647", { cookie }));
    recordPageView(ctx, view("/store", { cookie }));
    await flushEvents(ctx);
    const rows = await rowsIn("2026-08-01T15:00:00.000Z", "2026-08-01T16:00:00.000Z");
    expect(rows.map((r) => [r.kind, r.pageKind, r.productId])).toEqual([
      // The first two are the same page of no product: once a minute.
      ["view", "product", null],
      ["view", "product", 2147483647],
      ["view", "store", null],
    ]);
  });

  it("splits a batch the database refuses, so one bad row never holds up the others, and counts it as dropped", async () => {
    ctx.clock.set("2026-08-02T15:10:00.000Z");
    const poison = isPostgres(ctx.db)
      ? [sql`ALTER TABLE events ADD CONSTRAINT no_poison CHECK (page_kind IS NULL OR page_kind <> 'poison')`]
      : [sql`CREATE TRIGGER no_poison BEFORE INSERT ON events WHEN NEW.page_kind = 'poison' BEGIN SELECT RAISE(ABORT, 'poison'); END`];
    const cure = isPostgres(ctx.db) ? sql`ALTER TABLE events DROP CONSTRAINT no_poison` : sql`DROP TRIGGER no_poison`;
    for (const statement of poison) await statement.execute(ctx.db);
    expectLoggedErrors();
    try {
      for (let i = 0; i < 40; i++)
        recordEvent(ctx, { kind: "view", pageKind: i === 7 ? "poison" : "home", sessionId: `split-session-${i}-000000` });
      await flushEvents(ctx);
      // Nothing left to retry: the next batch goes in at once.
      recordEvent(ctx, { kind: "view", pageKind: "store", sessionId: "split-session-after-0000" });
      await flushEvents(ctx);
    } finally {
      await cure.execute(ctx.db);
    }
    const rows = await rowsIn("2026-08-02T15:00:00.000Z", "2026-08-02T16:00:00.000Z");
    expect(rows.filter((r) => r.kind === "view").map((r) => r.pageKind)).toEqual([...Array<string>(39).fill("home"), "store"]);
    expect(rows.filter((r) => r.kind === "dropped").map((r) => r.count)).toEqual([1]);
  });

  it("counts a session's views of one page once a minute", async () => {
    ctx.clock.set("2026-08-03T15:10:05.000Z");
    const cookie = bag("reload-loop-session-001");
    for (let i = 0; i < 500; i++) recordPageView(ctx, view("/store", { cookie }));
    recordPageView(ctx, view("/store/5", { cookie }));
    recordPageView(ctx, view("/store/5.data", { cookie }));
    recordPageView(ctx, view("/store/6", { cookie }));
    recordPageView(ctx, view("/store", { cookie: bag("another-session-00001") }));
    ctx.clock.set("2026-08-03T15:11:00.000Z");
    recordPageView(ctx, view("/store", { cookie }));
    await flushEvents(ctx);
    const rows = await rowsIn("2026-08-03T15:00:00.000Z", "2026-08-03T16:00:00.000Z");
    expect(rows.map((r) => [r.pageKind, r.productId])).toEqual([
      ["store", null],
      ["product", 5],
      ["product", 6],
      ["store", null],
      ["store", null],
    ]);
    expect(new Set(rows.map((r) => r.sessionKey)).size).toBe(2);
  });

  it("counts cookieless views in memory and writes them once a minute, one row per page kind and entry", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    ctx.clock.set("2026-08-04T15:10:00.000Z");
    for (let i = 0; i < 1000; i++) recordPageView(ctx, view("/store"));
    for (let i = 0; i < 30; i++) recordPageView(ctx, view("/", { referer: undefined }));
    const hour = ["2026-08-04T15:00:00.000Z", "2026-08-04T16:00:00.000Z"] as const;
    await vi.advanceTimersByTimeAsync(COUNTS_EVERY_MS - 1000);
    await flushEvents(ctx, { counts: false });
    expect(await rowsIn(...hour)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    await flushEvents(ctx, { counts: false });
    expect(await rowsIn(...hour)).toEqual([
      { kind: "view", pageKind: "store", sessionKey: null, isEntry: 0, productId: null, count: 1000 },
      { kind: "view", pageKind: "home", sessionKey: null, isEntry: 1, productId: null, count: 30 },
    ]);
    // The roll-up counts them as 1,030 views and 30 visits.
    await rollUpEvents(ctx);
    const hours = await ctx.db.selectFrom("eventHours").select(["metric", "count"]).where("hour", "=", hour[0]).orderBy("metric").execute();
    expect(hours).toEqual(
      expect.arrayContaining([
        { metric: "views", count: 1030 },
        { metric: "views:store", count: 1000 },
        { metric: "entries", count: 30 },
        { metric: "visitors", count: 30 },
      ]),
    );
  });

  it("drops what a stranger can cause past the ceiling a minute, counts it, and the dashboard shows it", async () => {
    ctx.clock.set("2026-08-05T15:10:00.000Z");
    const over = 25;
    for (let i = 0; i < EVENTS_PER_MINUTE + over; i++) recordEvent(ctx, { kind: "bag_add", sessionId: `flood-${i}-session-0000` });
    // What follows from a purchase is bounded by the stock, and never dropped.
    recordEvent(ctx, { kind: "order", orderId: 1 });
    await flushEvents(ctx);
    ctx.clock.set("2026-08-05T15:11:00.000Z");
    recordEvent(ctx, { kind: "bag_add", sessionId: "next-minute-session-0001" });
    await flushEvents(ctx);
    const counts = await ctx.db
      .selectFrom("events")
      .select(["kind", (eb) => eb.fn.sum<number>("count").as("n")])
      .where("occurredAt", ">=", "2026-08-05T15:00:00.000Z")
      .where("occurredAt", "<", "2026-08-05T16:00:00.000Z")
      .groupBy("kind")
      .orderBy("kind")
      .execute();
    expect(counts.map((c) => [c.kind, Number(c.n)])).toEqual([
      ["bag_add", EVENTS_PER_MINUTE + 1],
      ["dropped", over],
      ["order", 1],
    ]);
    await rollUpEvents(ctx);
    const dashboard = await getDashboard(ctx, { from: "2026-08-05", to: "2026-08-05" });
    expect(dashboard.eventsDropped).toBe(over);
    expect(dashboard.summary.funnel.bagged).toBe(EVENTS_PER_MINUTE + 1);
  });
});

describe("the bag cookie a view is counted by", () => {
  it("reads each value once and keeps at most 10,000, none longer than a genuine cookie can be", () => {
    const first = bag("memo-check-session-00000");
    expect(sessionIdOf(first)).toBe("memo-check-session-00000");
    // Read again from the memo, and the same as a fresh read of the same text.
    expect(sessionIdOf(`theme=dark; ${first}`)).toBe("memo-check-session-00000");
    for (let i = 0; i < 10_050; i++)
      expect(sessionIdOf(bag(`memo-flood-${String(i).padStart(12, "0")}`))).toBe(`memo-flood-${String(i).padStart(12, "0")}`);
    expect(cartCookiesKept()).toBe(10_000);
    // A made-up value reads as no session, remembered as such; a malformed one (a broken escape) too.
    expect(sessionIdOf("cart=not-a-bag")).toBeNull();
    expect(sessionIdOf("cart=%E0%A4%A; session=tok")).toBe("user:tok");
    // Longer than any genuine bag cookie: still read (it may carry an id), never kept.
    const padded = `cart=${encodeURIComponent(Buffer.from(JSON.stringify("memo-long-session-000000")).toString("base64"))}.${"s".repeat(500)}`;
    const kept = cartCookiesKept();
    expect(sessionIdOf(padded)).toBe("memo-long-session-000000");
    expect(cartCookiesKept()).toBe(kept);
  });
});

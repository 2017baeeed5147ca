// Issue 14 parts 1 and 6: the summary and subscriber reports (REST), the dashboard's figures, the
// funnel's order steps. Every figure is checked against orders, refunds, subscribers and events
// this file wrote itself at known times, never against another report's output.
import { beforeAll, describe, expect, it } from "vitest";
import * as dashboardRoute from "#app/routes/admin._index";
import type { DashboardView, Summary } from "#server/contracts/reports";
import { useAppContextForTests } from "#server/boot";
import { rollUpEvents } from "#server/services/reporting/event-rollup";
import { flushEvents, recordEvent } from "#server/services/reporting/events";
import { getDashboard } from "#server/services/reporting/dashboard";
import { rollUpOrders } from "#server/services/reporting/order-rollup";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();
const shopper = new CookieJar();
let teeId: number;
let capId: number;

// June 2026: New York is on EDT (UTC-4), so a store day runs 04:00Z to 04:00Z.
async function order(createdAt: string, totalCents: number, options: { paid?: boolean; test?: boolean; items?: [number, number][] } = {}) {
  const { id } = await ctx.db
    .insertInto("orders")
    .values({
      customerEmail: "buyer@example.com",
      customerName: "Buyer",
      shippingAddress: "{}",
      subtotalCents: totalCents,
      totalCents,
      status: options.paid === false ? "pending" : "processing",
      paidAt: options.paid === false ? null : new Date(Date.parse(createdAt) + 60_000).toISOString(),
      isTest: options.test ? 1 : 0,
      createdAt,
      updatedAt: createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const [productId, quantity] of options.items ?? []) {
    await ctx.db
      .insertInto("orderItems")
      .values({
        orderId: id,
        productId,
        productName: productId === teeId ? "Report Tee" : "Report Cap",
        productPriceCents: 1000,
        quantity,
        totalCents: quantity * 1000,
      })
      .execute();
  }
  return id;
}

async function refund(orderId: number, createdAt: string, amountCents: number) {
  await ctx.db
    .insertInto("refunds")
    .values({ orderId, refundId: `re_${orderId}_${createdAt}`, amountCents, status: "succeeded", createdAt, processedAt: createdAt })
    .execute();
}

const get = async <T>(path: string, jar = admin) => {
  const response = await api("GET", path, { jar });
  return { status: response.status, body: (await response.json()) as T };
};

beforeAll(async () => {
  useAppContextForTests(ctx);
  ctx.clock.set("2026-06-15T16:00:00.000Z");
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  expect((await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin })).status).toBe(200);
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
  teeId = await addProduct(ctx, { name: "Report Tee" });
  capId = await addProduct(ctx, { name: "Report Cap" });

  // In the range 2026-06-10 .. 2026-06-12 (New York):
  const a = await order("2026-06-10T04:00:00.000Z", 5000, { items: [[teeId, 2]] }); // 00:00 on the 10th
  await order("2026-06-13T03:30:00.000Z", 2500, { items: [[capId, 1]] }); // 23:30 on the 12th
  const t = await order("2026-06-11T15:00:00.000Z", 9900, { test: true, items: [[capId, 5]] });
  await order("2026-06-11T16:00:00.000Z", 4000, { paid: false }); // placed, never paid
  // Outside it, by a minute either side:
  await order("2026-06-10T03:59:00.000Z", 7000); // 23:59 on the 9th
  await order("2026-06-13T04:00:00.000Z", 8000); // 00:00 on the 13th
  // The previous period (06-07 .. 06-09):
  await order("2026-06-08T12:00:00.000Z", 1000);
  await refund(a, "2026-06-11T10:00:00.000Z", 1500);
  await refund(t, "2026-06-11T11:00:00.000Z", 500);
  await refund(a, "2026-06-14T10:00:00.000Z", 700); // after the range
});

describe("GET /api/admin/reports/summary", () => {
  it("sums the paid orders placed in the range, on New York days, leaving test orders out", async () => {
    const { status, body } = await get<Summary>("/api/admin/reports/summary?from=2026-06-10&to=2026-06-12");
    expect(status).toBe(200);
    expect(body).toMatchObject({ orders: 2, revenue: 75, refunds: 15, averageOrder: 37.5 });
    expect(body.funnel).toMatchObject({ ordered: 3, paid: 2 });
    expect(body.series).toEqual([
      { t: "2026-06-10T04:00:00.000Z", orders: 1, revenue: 50 },
      { t: "2026-06-11T04:00:00.000Z", orders: 0, revenue: 0 },
      { t: "2026-06-12T04:00:00.000Z", orders: 1, revenue: 25 },
    ]);
  });

  it("counts test orders and their refunds with includeTest=1", async () => {
    const { body } = await get<Summary>("/api/admin/reports/summary?from=2026-06-10&to=2026-06-12&includeTest=1");
    expect(body).toMatchObject({ orders: 3, revenue: 174, refunds: 20, averageOrder: 58 });
    expect(body.funnel).toMatchObject({ ordered: 4, paid: 3 });
    expect(body.series.map((p) => p.orders)).toEqual([1, 1, 1]);
  });

  it("answers per hour for one day, the bucket of an order at 23:30 New York being 03:00Z next day", async () => {
    const { body } = await get<Summary>("/api/admin/reports/summary?from=2026-06-12&to=2026-06-12");
    expect(body.series).toHaveLength(24);
    expect(body.series[0]!.t).toBe("2026-06-12T04:00:00.000Z");
    expect(body.series.filter((p) => p.orders > 0)).toEqual([{ t: "2026-06-13T03:00:00.000Z", orders: 1, revenue: 25 }]);
  });

  it("counts visitors, bag and checkout sessions from the events of the range", async () => {
    const at = (iso: string) => new Date(iso);
    recordEvent(ctx, { kind: "view", pageKind: "home", sessionId: "report-session-aaaa", at: at("2026-06-10T12:00:00.000Z") });
    recordEvent(ctx, { kind: "bag_add", sessionId: "report-session-aaaa", productId: teeId, at: at("2026-06-10T12:01:00.000Z") });
    recordEvent(ctx, { kind: "checkout_view", sessionId: "report-session-aaaa", at: at("2026-06-10T12:02:00.000Z") });
    recordEvent(ctx, { kind: "view", pageKind: "store", sessionId: "report-session-bbbb", at: at("2026-06-11T12:00:00.000Z") });
    recordEvent(ctx, { kind: "view", pageKind: "home", entry: true, at: at("2026-06-12T12:00:00.000Z") });
    recordEvent(ctx, { kind: "view", pageKind: "home", entry: true, at: at("2026-06-13T12:00:00.000Z") }); // after the range
    await flushEvents(ctx);
    await rollUpEvents(ctx);
    const { body } = await get<Summary>("/api/admin/reports/summary?from=2026-06-10&to=2026-06-12");
    expect(body.funnel).toEqual({ visitors: 3, bagged: 1, checkout: 1, ordered: 3, paid: 2 });
  });

  it("refuses bad dates with 400 and a message naming the field", async () => {
    const cases: [string, string][] = [
      ["from=2026-13-01&to=2026-06-12", '"from" must be a date as YYYY-MM-DD, such as 2026-11-25.'],
      ["from=2026-06-10&to=June", '"to" must be a date as YYYY-MM-DD, such as 2026-11-25.'],
      ["from=2026-02-30&to=2026-03-02", '"from" must be a date as YYYY-MM-DD, such as 2026-11-25.'],
      ["from=2026-06-12&to=2026-06-10", '"from" must be on or before "to".'],
      ["from=2024-01-01&to=2026-06-10", "A report covers at most 400 days. Choose a shorter range."],
      ["from=2026-06-10&to=2026-06-12&includeTest=yes", '"includeTest" must be 1 or 0.'],
    ];
    for (const [query, message] of cases) {
      const { status, body } = await get<{ message: string }>(`/api/admin/reports/summary?${query}`);
      expect([query, status, body.message]).toEqual([query, 400, message]);
    }
  });

  it("is for admins only: 401 signed out, 403 for a shopper", async () => {
    expect((await api("GET", "/api/admin/reports/summary?from=2026-06-10&to=2026-06-12")).status).toBe(401);
    expect((await api("GET", "/api/admin/reports/summary?from=2026-06-10&to=2026-06-12", { jar: shopper })).status).toBe(403);
    expect((await api("GET", "/api/admin/reports/subscribers", { jar: shopper })).status).toBe(403);
  });
});

describe("GET /api/admin/reports/subscribers", () => {
  it("counts sign-ups and unsubscribes per New York day and the list's size at each day's end", async () => {
    const sub = (email: string, subscribedAt: string, unsubscribedAt: string | null = null) =>
      ctx.db.insertInto("subscribers").values({ email, subscribedAt, unsubscribedAt }).execute();
    await sub("early@example.com", "2026-05-01T12:00:00.000Z"); // before: counted in the total
    await sub("gone-before@example.com", "2026-05-01T12:00:00.000Z", "2026-05-02T12:00:00.000Z"); // left before
    await sub("leaver@example.com", "2026-05-03T12:00:00.000Z", "2026-06-11T14:00:00.000Z"); // leaves on the 11th
    await sub("new1@example.com", "2026-06-10T05:00:00.000Z");
    await sub("new2@example.com", "2026-06-10T20:00:00.000Z");
    await sub("late@example.com", "2026-06-13T03:59:00.000Z"); // 23:59 on the 12th
    await sub("after@example.com", "2026-06-13T04:00:00.000Z"); // the 13th: outside
    const { status, body } = await get<{ series: unknown[] }>("/api/admin/reports/subscribers?from=2026-06-10&to=2026-06-12");
    expect(status).toBe(200);
    expect(body.series).toEqual([
      { t: "2026-06-10T04:00:00.000Z", joined: 2, left: 0, total: 4 },
      { t: "2026-06-11T04:00:00.000Z", joined: 0, left: 1, total: 3 },
      { t: "2026-06-12T04:00:00.000Z", joined: 1, left: 0, total: 4 },
    ]);
  });

  it("refuses a bad date with 400", async () => {
    const { status, body } = await get<{ message: string }>("/api/admin/reports/subscribers?from=yesterday");
    expect(status).toBe(400);
    expect(body.message).toBe('"from" must be a date as YYYY-MM-DD, such as 2026-11-25.');
  });
});

describe("the dashboard (/admin)", () => {
  it("compares the range with the period just before, and lists the top products", async () => {
    const view = await getDashboard(ctx, { range: "custom", from: "2026-06-10", to: "2026-06-12" });
    expect(view.range).toEqual({ preset: "custom", from: "2026-06-10", to: "2026-06-12", bucket: "day" });
    expect(view.previous).toEqual({ from: "2026-06-07", to: "2026-06-09" });
    expect(view.summary.orders).toBe(2);
    expect(view.previousSummary).toMatchObject({ orders: 2, revenue: 80 });
    expect(view.refundCount).toBe(1);
    expect(view.topProducts).toEqual([
      { productId: teeId, name: "Report Tee", units: 2, revenue: 20 },
      { productId: capId, name: "Report Cap", units: 1, revenue: 10 },
    ]);
    const withTest = await getDashboard(ctx, { range: "custom", from: "2026-06-10", to: "2026-06-12", includeTest: true });
    expect(withTest.topProducts[0]).toEqual({ productId: capId, name: "Report Cap", units: 6, revenue: 60 });
  });

  it("reads today, 7 and 30 days on the store's clock", async () => {
    ctx.clock.set("2026-06-13T03:30:00.000Z"); // 23:30 on the 12th in New York
    expect((await getDashboard(ctx, { range: "today" })).range).toEqual({
      preset: "today",
      from: "2026-06-12",
      to: "2026-06-12",
      bucket: "hour",
    });
    expect((await getDashboard(ctx, { range: "7d" })).range).toMatchObject({ from: "2026-06-06", to: "2026-06-12" });
    expect((await getDashboard(ctx, { range: "30d" })).range).toMatchObject({ from: "2026-05-14", to: "2026-06-12" });
    ctx.clock.set("2026-06-15T16:00:00.000Z");
  });

  it("says why a custom range was refused and shows the last 7 days", async () => {
    const view = await getDashboard(ctx, { range: "custom", from: "2026-06-12", to: "2026-06-01" });
    expect(view.error).toBe('"from" must be on or before "to".');
    expect(view.range).toMatchObject({ preset: "7d", from: "2026-06-09", to: "2026-06-15" });
  });

  it("renders for an admin from the GET form's parameters, and sends anyone else to sign in", async () => {
    const page = await runRoute<{ dashboard: DashboardView }>(dashboardRoute.loader, {
      path: "/admin?range=custom&from=2026-06-10&to=2026-06-12&includeTest=1",
      jar: admin,
    });
    expect(page.status).toBe(200);
    expect(page.data.dashboard.summary.orders).toBe(3);
    expect(page.data.dashboard.includeTest).toBe(true);
    const outsider = await runRoute(dashboardRoute.loader, { path: "/admin", jar: shopper });
    expect(outsider.status).not.toBe(200);
    const anonymous = await runRoute(dashboardRoute.loader, { path: "/admin" });
    expect(anonymous.status).toBe(302);
  });
});

describe("orders rolled up per hour", () => {
  it("give the same summary as the orders table, and orders placed since are still counted at once", async () => {
    ctx.clock.set("2026-06-15T16:00:00.000Z");
    expect(await rollUpOrders(ctx)).toMatchObject({ hours: expect.any(Number) });
    const rolled = await ctx.db
      .selectFrom("eventHours")
      .select(["hour", "count"])
      .where("metric", "=", "orders:paid")
      .orderBy("hour")
      .execute();
    // Days before yesterday (the 14th, New York) only: the 13th 04:00Z order is the last one in.
    expect(rolled.map((r) => r.hour)).toContain("2026-06-13T04:00:00.000Z");
    expect(rolled.every((r) => r.hour < "2026-06-14T04:00:00.000Z")).toBe(true);

    const { body } = await get<Summary>("/api/admin/reports/summary?from=2026-06-10&to=2026-06-12");
    expect(body).toMatchObject({ orders: 2, revenue: 75, refunds: 15, averageOrder: 37.5 });
    expect(body.funnel).toMatchObject({ ordered: 3, paid: 2 });
    expect(body.series.map((p) => p.revenue)).toEqual([50, 0, 25]);
    const withTest = await get<Summary>("/api/admin/reports/summary?from=2026-06-10&to=2026-06-12&includeTest=1");
    expect(withTest.body).toMatchObject({ orders: 3, revenue: 174 });
    expect(withTest.body.funnel).toMatchObject({ ordered: 4, paid: 3 });

    const dashboard = await getDashboard(ctx, { range: "custom", from: "2026-06-10", to: "2026-06-12" });
    expect(dashboard.topProducts).toEqual([
      { productId: teeId, name: "Report Tee", units: 2, revenue: 20 },
      { productId: capId, name: "Report Cap", units: 1, revenue: 10 },
    ]);
    const withTestTop = await getDashboard(ctx, { range: "custom", from: "2026-06-10", to: "2026-06-12", includeTest: true });
    expect(withTestTop.topProducts[0]).toEqual({ productId: capId, name: "Report Cap", units: 6, revenue: 60 });

    // Today (the 15th) is read live: an order placed a minute ago is in.
    await order("2026-06-15T15:59:00.000Z", 1234);
    const today = await get<Summary>("/api/admin/reports/summary?from=2026-06-15&to=2026-06-15");
    expect(today.body).toMatchObject({ orders: 1, revenue: 12.34 });
    // A range across both: the rolled days and the live ones add up.
    const week = await get<Summary>("/api/admin/reports/summary?from=2026-06-09&to=2026-06-15");
    expect(week.body).toMatchObject({ orders: 5, revenue: 75 + 70 + 80 + 12.34 });
  });
});

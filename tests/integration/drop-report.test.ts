import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { CHECKOUT_MESSAGES } from "#server/contracts/checkout";
import { processOrder } from "#server/services/checkout/checkout";
import { saveCountdown } from "#server/services/drop/drops";
import { ensureAdmin } from "#server/services/accounts/users";
import { joinLine, lineStatus } from "#server/services/drop/waiting-room";
import { updateWaitingRoom } from "#server/services/drop/waiting-room-admin";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";
import { dropReportLoader } from "#server/http/doors/drop-reports-door";

/**
 * The drop report against what this file makes itself: orders at known times after T-0, waiting-room
 * places with known waits, early-access links claimed and used, sold-out refusals, a refund. Every
 * expected figure below is worked out from those rows by hand, never read back from the report.
 */

const ctx = createTestContext();
const admin = new CookieJar();
const shopper = new CookieJar();
const T0 = Date.parse("2026-06-01T18:00:00.000Z");
const at = (offsetMs: number) => new Date(T0 + offsetMs).toISOString();
const S = 1000;
const MIN = 60 * S;

let hoodie: number;
let cap: number;
let dropId: number;
let hoodieOrder: number;

async function order(input: {
  createdAt: string;
  items: { productId: number; name: string; quantity: number; unitCents: number }[];
  paid?: boolean;
  test?: boolean;
  email?: string;
}): Promise<number> {
  const cents = input.items.reduce((sum, i) => sum + i.quantity * i.unitCents, 0);
  const email = input.email ?? `buyer-${Math.random().toString(36).slice(2)}@example.com`;
  const { id } = await ctx.db
    .insertInto("orders")
    .values({
      customerEmail: email,
      customerKey: email.toLowerCase(),
      customerName: "Buyer",
      shippingAddress: "{}",
      subtotalCents: cents,
      totalCents: cents + 795,
      shippingCents: 795,
      status: input.paid === false ? "pending" : "processing",
      paidAt: input.paid === false ? null : input.createdAt,
      paymentIntentId: `pi_${Math.random().toString(36).slice(2)}`,
      isTest: input.test ? 1 : 0,
      createdAt: input.createdAt,
      updatedAt: input.createdAt,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  for (const item of input.items) {
    await ctx.db
      .insertInto("orderItems")
      .values({
        orderId: id,
        productId: item.productId,
        productName: item.name,
        productPriceCents: item.unitCents,
        quantity: item.quantity,
        totalCents: item.quantity * item.unitCents,
      })
      .execute();
  }
  return id;
}

const customer = {
  email: "late@example.com",
  name: "Late Buyer",
  phone: "",
  street: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
};

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });

  ctx.clock.set(at(-3 * 24 * 60 * MIN));
  await saveCountdown(ctx, at(0));
  const release = { isCountdownRestricted: 1 as const, countdownReleaseDate: at(0) };
  hoodie = await addProduct(ctx, { name: "Drop Hoodie", priceCents: 12000, inventory: 0, ...release });
  cap = await addProduct(ctx, { name: "Drop Cap", priceCents: 3000, inventory: 10, ...release });
  const socks = await addProduct(ctx, { name: "Drop Socks", priceCents: 1500, inventory: 4, ...release });

  // Early-access links: three made for this drop (one claimed and followed by an order, one
  // claimed only, one never opened), one made after T-0 (the next drop's).
  await ctx.db
    .insertInto("earlyAccessLinks")
    .values([
      { email: "Fan1@Example.com", createdAt: at(-2 * 24 * 60 * MIN), openedAt: at(-20 * MIN) },
      { email: "fan2@example.com", createdAt: at(-2 * 24 * 60 * MIN), openedAt: at(-15 * MIN) },
      { email: "fan3@example.com", createdAt: at(-2 * 24 * 60 * MIN) },
      { email: "fan4@example.com", createdAt: at(5 * MIN) },
    ])
    .execute();

  const H = { productId: hoodie, name: "Drop Hoodie", unitCents: 12000 };
  const C = { productId: cap, name: "Drop Cap", unitCents: 3000 };
  // Counted: paid, not test, inside T-0 − 1 h … T-0 + 24 h.
  await order({ createdAt: at(-10 * MIN), items: [{ ...C, quantity: 1 }], email: "fan1@example.com" });
  hoodieOrder = await order({
    createdAt: at(30 * S),
    items: [
      { ...H, quantity: 1 },
      { ...C, quantity: 2 },
    ],
  });
  await order({ createdAt: at(90 * S), items: [{ ...H, quantity: 2 }] });
  await order({ createdAt: at(59 * MIN + 59 * S), items: [{ ...C, quantity: 1 }] });
  await order({ createdAt: at(2 * 60 * MIN), items: [{ ...C, quantity: 1 }] });
  // Left out: a test order, an unpaid one, one after the window, one before it.
  await order({ createdAt: at(40 * S), items: [{ ...C, quantity: 5 }], test: true });
  await order({ createdAt: at(50 * S), items: [{ ...C, quantity: 3 }], paid: false });
  await order({ createdAt: at(25 * 60 * MIN), items: [{ ...C, quantity: 1 }] });
  await order({ createdAt: at(-61 * MIN), items: [{ ...C, quantity: 1 }] });

  // A refund since T-0 on a drop order, and one on an order outside the drop.
  const outside = await order({ createdAt: at(-3 * 60 * MIN), items: [{ ...C, quantity: 1 }] });
  await ctx.db
    .insertInto("refunds")
    .values([
      { orderId: hoodieOrder, refundId: "re_1", amountCents: 12000, status: "succeeded", createdAt: at(60 * MIN) },
      { orderId: outside, refundId: "re_2", amountCents: 3000, status: "succeeded", createdAt: at(60 * MIN) },
    ])
    .execute();

  // The waiting room at one a second: three wait before T-0 (drawn into places 1–3 at T-0); at
  // T+2 s, with two let in, five more join (places 4–8: the line is 6 long after the last one).
  ctx.clock.set(at(-20 * MIN));
  await updateWaitingRoom(ctx, { admitPerMinute: 60 });
  ctx.clock.set(at(-5 * MIN));
  const early = [];
  for (let i = 0; i < 3; i++) early.push((await joinLine(ctx, { placeId: null, address: `198.51.100.${i}` })).placeId!);
  ctx.clock.set(at(2 * S));
  for (let i = 0; i < 5; i++) await joinLine(ctx, { placeId: null, address: `203.0.113.${i}` });
  // Two of the early group come back for their turn at T+10 s and T+20 s; the third never does.
  ctx.clock.set(at(10 * S));
  expect((await lineStatus(ctx, { placeId: early[0]! })).status.state).toBe("admitted");
  ctx.clock.set(at(20 * S));
  expect((await lineStatus(ctx, { placeId: early[1]! })).status.state).toBe("admitted");

  // Sold-out misses: the socks run out after the bags were filled; one shopper tries twice, another once.
  await ctx.db
    .insertInto("cartItems")
    .values([
      { sessionId: "late-1", productId: socks, quantity: 1 },
      { sessionId: "late-2", productId: socks, quantity: 1 },
    ])
    .execute();
  await ctx.db.updateTable("products").set({ inventory: 0 }).where("id", "=", socks).execute();
  ctx.clock.set(at(3 * 60 * MIN));
  for (const sessionId of ["late-1", "late-1", "late-2"]) {
    await expect(processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" })).rejects.toThrow(
      CHECKOUT_MESSAGES.soldOut("Drop Socks"),
    );
  }

  // The funnel's roll-ups: the hour from T-0, and the next one (outside the first hour).
  await ctx.db
    .insertInto("eventHours")
    .values([
      { hour: at(0), metric: "visitors", count: 120 },
      { hour: at(0), metric: "bagged", count: 40 },
      { hour: at(0), metric: "checkout_sessions", count: 12 },
      { hour: at(60 * MIN), metric: "visitors", count: 999 },
    ])
    .execute();

  ctx.clock.set(at(4 * 60 * MIN));
  dropId = (await ctx.db.selectFrom("drops").select("id").where("countdownAt", "=", at(0)).executeTakeFirstOrThrow()).id;
});

const minute = (n: number, units: number, revenue: number) => ({ minute: n, units, revenue });

describe("GET /api/admin/drops/:id", () => {
  it("reports sales, sell-out, the first hour, the waiting room, early access, misses and refunds", async () => {
    const response = await api("GET", `/api/admin/drops/${dropId}`, { jar: admin });
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report).toMatchObject({
      id: dropId,
      countdownAt: at(0),
      from: at(-60 * MIN),
      to: at(24 * 60 * MIN),
      state: "live",
      includeTest: false,
      // 1 + 3 + 2 + 1 + 1 units; $30 + $180 + $240 + $30 + $30.
      totals: { orders: 5, units: 8, revenue: 510 },
      products: [
        { productId: cap, name: "Drop Cap", units: 5, revenue: 150, left: 10, soldOutAt: null, sellOutSeconds: null },
        { productId: hoodie, name: "Drop Hoodie", units: 3, revenue: 360, left: 0, soldOutAt: at(90 * S), sellOutSeconds: 90 },
        { name: "Drop Socks", units: 0, revenue: 0, left: 0, soldOutAt: null, sellOutSeconds: null },
      ],
      beforeT0: { units: 1, revenue: 30 },
      // Orders placed in the first hour: three paid, one unpaid (the test order left out).
      funnel: { visitors: 120, bagged: 40, checkout: 12, ordered: 4, paid: 3 },
      waitingRoom: {
        joined: 8,
        peakLength: 6,
        peakAt: at(2 * S),
        admitted: 2,
        waitP50Seconds: 10,
        waitP95Seconds: 20,
        leftLine: 6,
      },
      earlyAccess: { sent: 3, used: 2, converted: 1 },
      soldOutMisses: { attempts: 3, shoppers: 2, products: [{ name: "Drop Socks", attempts: 3 }] },
      refunds: { count: 1, amount: 120 },
    });
    expect(report.minutes).toHaveLength(60);
    const expected = Array.from({ length: 60 }, (_, n) => minute(n, 0, 0));
    expected[0] = minute(0, 3, 180);
    expected[1] = minute(1, 2, 240);
    expected[59] = minute(59, 1, 30);
    expect(report.minutes).toEqual(expected);
  });

  it("counts test orders when asked (includeTest=1), and refuses a bad includeTest with 400", async () => {
    const report = await (await api("GET", `/api/admin/drops/${dropId}?includeTest=1`, { jar: admin })).json();
    expect(report.totals).toEqual({ orders: 6, units: 13, revenue: 660 });
    expect(report.minutes[0]).toEqual(minute(0, 8, 330));
    const refused = await api("GET", `/api/admin/drops/${dropId}?includeTest=maybe`, { jar: admin });
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe('"includeTest" must be 1 or 0.');
  });

  it("answers 404 for an unknown drop", async () => {
    const missing = await api("GET", "/api/admin/drops/9999", { jar: admin });
    expect(missing.status).toBe(404);
    expect((await missing.json()).message).toBe("Drop not found.");
    expect((await api("GET", "/api/admin/drops/abc", { jar: admin })).status).toBe(404);
  });
});

describe("GET /api/admin/drops/:id.csv", () => {
  it("downloads the report as CSV with the exact header and rows", async () => {
    const response = await api("GET", `/api/admin/drops/${dropId}.csv`, { jar: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="drop-${dropId}-2026-06-01.csv"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A byte-order mark first, so Excel reads the UTF-8.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).split("\r\n");
    const minuteRows = Array.from({ length: 60 }, (_, n) => `minute,T+${n},0,0.00,`);
    minuteRows[0] = "minute,T+0,3,180.00,";
    minuteRows[1] = "minute,T+1,2,240.00,";
    minuteRows[59] = "minute,T+59,1,30.00,";
    expect(lines).toEqual([
      "section,label,units,revenue,value",
      "drop,T-0,,,2026-06-01T18:00:00.000Z",
      "drop,Window,,,2026-06-01T17:00:00.000Z/2026-06-02T18:00:00.000Z",
      "drop,Test orders,,,left out",
      "totals,Paid orders,8,510.00,5",
      "product,Drop Cap,5,150.00,not sold out",
      "product,Drop Hoodie,3,360.00,90",
      "product,Drop Socks,0,0.00,not sold out",
      "minute,Before T-0,1,30.00,",
      ...minuteRows,
      "funnel,Visitors,,,120",
      "funnel,Added to bag,,,40",
      "funnel,Reached checkout,,,12",
      "funnel,Placed order,,,4",
      "funnel,Paid,,,3",
      "waiting room,Joined,,,8",
      "waiting room,Peak length,,,6",
      "waiting room,Admitted,,,2",
      "waiting room,Wait p50 (s),,,10",
      "waiting room,Wait p95 (s),,,20",
      "waiting room,Left the line,,,6",
      "early access,Links sent,,,3",
      "early access,Links used,,,2",
      "early access,Converted,,,1",
      "sold-out misses,Attempts,,,3",
      "sold-out misses,Shoppers,,,2",
      "sold-out misses,Drop Socks,,,3",
      "refunds,Since T-0,,120.00,1",
      "",
    ]);
  });
});

describe("which drops there are", () => {
  it("lists the countdowns: a date moved before its T-0 is the same drop, one set after T-0 a new one", async () => {
    // After this drop's T-0 the admin sets the next one: a new drop.
    await saveCountdown(ctx, at(7 * 24 * 60 * MIN));
    const [next] = await (await api("GET", "/api/admin/drops", { jar: admin })).json();
    // Moved again before it came: rescheduled, same id.
    await saveCountdown(ctx, at(8 * 24 * 60 * MIN));
    const response = await api("GET", "/api/admin/drops", { jar: admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      {
        id: next.id,
        countdownAt: at(8 * 24 * 60 * MIN),
        from: at(8 * 24 * 60 * MIN - 60 * MIN),
        to: at(9 * 24 * 60 * MIN),
        state: "upcoming",
      },
      { id: dropId, countdownAt: at(0), from: at(-60 * MIN), to: at(24 * 60 * MIN), state: "live" },
    ]);
    expect(next.id).not.toBe(dropId);
  });
});

describe("an id that names no drop", () => {
  // PostgreSQL's ids are \`integer\`: a larger number sent to it was an error, a 500.
  const unknown = ["999999", "2147483648", "9007199254740991", "abc"];

  it("is a 404 with the message at REST, tRPC and the admin's page", async () => {
    for (const id of unknown) {
      const rest = await api("GET", `/api/admin/drops/${id}`, { jar: admin });
      expect(rest.status, id).toBe(404);
      expect(await rest.json(), id).toEqual({ message: "Drop not found.", errors: {} });
      const page = await runRoute(dropReportLoader, { path: `/admin/drops/${id}`, params: { id }, jar: admin });
      expect({ id, status: page.status, data: page.data }).toEqual({ id, status: 404, data: "Drop not found." });
    }
    const input = (id: number) => encodeURIComponent(JSON.stringify({ id }));
    expect((await api("GET", `/api/trpc/admin.drops.report?input=${input(999_999)}`, { jar: admin })).status).toBe(404);
    expect((await api("GET", `/api/trpc/admin.drops.report?input=${input(2_147_483_648)}`, { jar: admin })).status).toBe(400);
  });
});

describe("admin only", () => {
  const paths = ["/api/admin/drops", "/api/admin/drops/1", "/api/admin/drops/1.csv", "/api/admin/pre-drop-checklist"];
  it("answers 401 to a visitor and 403 to a shopper, at REST and tRPC", async () => {
    for (const path of paths) {
      expect((await api("GET", path)).status, path).toBe(401);
      expect((await api("GET", path, { jar: shopper })).status, path).toBe(403);
    }
    expect((await api("POST", "/api/admin/test-email")).status).toBe(401);
    expect((await api("POST", "/api/admin/test-email", { jar: shopper })).status).toBe(403);
    expect((await api("GET", "/api/trpc/admin.drops.list")).status).toBe(401);
    expect((await api("GET", "/api/trpc/admin.drops.list", { jar: shopper })).status).toBe(403);
    const input = encodeURIComponent(JSON.stringify({ id: dropId }));
    expect((await api("GET", `/api/trpc/admin.drops.report?input=${input}`, { jar: shopper })).status).toBe(403);
    const ok = await api("GET", `/api/trpc/admin.drops.report?input=${input}`, { jar: admin });
    expect(ok.status).toBe(200);
  });
});

describe("sold-out misses in the report", () => {
  it("counts a repeat by one bag or e-mail once, a miss with neither as its own shopper, and only the drop's window", async () => {
    const miss = (productName: string, createdAt: string, sessionId: string | null, customerKey: string | null) => ({
      productId: null,
      productName,
      sessionId,
      customerKey,
      createdAt,
    });
    // Beside the setup's three (two bags, Drop Socks): two with neither bag nor e-mail, a new bag
    // twice, an e-mail alone, the setup's "late-1" bag again; and two outside the window.
    await ctx.db
      .insertInto("soldOutMisses")
      .values([
        miss("Drop Socks", at(5 * MIN), null, null),
        miss("Drop Socks", at(6 * MIN), null, null),
        miss("Drop Cap", at(7 * MIN), "bag-of-a-bot", null),
        miss("Drop Cap", at(8 * MIN), "bag-of-a-bot", null),
        miss("Drop Cap", at(9 * MIN), null, "late@example.com"),
        miss("Drop Hoodie", at(10 * MIN), "late-1", null),
        miss("Drop Hoodie", at(-61 * MIN), "early-bag", null),
        miss("Drop Hoodie", at(24 * 60 * MIN), "next-day-bag", null),
      ])
      .execute();
    const response = await api("GET", `/api/admin/drops/${dropId}`, { jar: admin });
    expect(response.status).toBe(200);
    expect((await response.json()).soldOutMisses).toEqual({
      attempts: 9,
      // late-1, late-2, the two nameless misses, bag-of-a-bot, late@example.com.
      shoppers: 6,
      products: [
        { name: "Drop Socks", attempts: 5 },
        { name: "Drop Cap", attempts: 3 },
        { name: "Drop Hoodie", attempts: 1 },
      ],
    });
  });
});

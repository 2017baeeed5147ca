import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { runFulfilmentJob } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();
const shopper = new CookieJar();
const customer = {
  email: "olga@example.com",
  name: "Olga Orders",
  phone: "",
  street: "350 5th Ave",
  city: "New York",
  state: "NY",
  zipCode: "10001",
  country: "US",
};
let adminId: number;
let productId: number;

/** A paid order made the way checkout makes one: bag → process-order → local card → confirm. */
async function paidOrder(sessionId: string, quantity = 1) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity }).execute();
  const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
  await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
  await confirmPayment(ctx, order.paymentIntentId);
  await runFulfilmentJob(ctx);
  return { id: order.orderSummary.orderId, paymentIntentId: order.paymentIntentId, summary: order.orderSummary };
}

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  adminId = (await ctx.db.selectFrom("users").select("id").where("username", "=", "boss").executeTakeFirstOrThrow()).id;
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
  productId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Sin Gritos Cap", description: "Six-panel cotton cap", priceCents: 3200, inventory: 50 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});

const list = (jar?: CookieJar) => api("GET", "/api/admin/orders", { jar });
const patchStatus = (id: number | string, body: unknown, jar?: CookieJar) => api("PATCH", `/api/admin/orders/${id}/status`, { body, jar });
const eligibility = (id: number | string, jar?: CookieJar) => api("GET", `/api/admin/orders/${id}/refund-eligibility`, { jar });
const refund = (id: number | string, body: unknown, jar?: CookieJar) => api("POST", `/api/admin/orders/${id}/refund`, { body, jar });

describe("who may call the admin order doors", () => {
  // Every handler and every method, including the ones that only answer 405 to an admin.
  const doors = [
    { name: "GET /api/admin/orders", run: (jar?: CookieJar) => list(jar) },
    { name: "POST /api/admin/orders", run: (jar?: CookieJar) => api("POST", "/api/admin/orders", { body: {}, jar }) },
    { name: "PATCH …/status", run: (jar?: CookieJar) => patchStatus(1, { status: "shipped" }, jar) },
    { name: "GET …/status", run: (jar?: CookieJar) => api("GET", "/api/admin/orders/1/status", { jar }) },
    { name: "GET …/refund-eligibility", run: (jar?: CookieJar) => eligibility(1, jar) },
    { name: "POST …/refund-eligibility", run: (jar?: CookieJar) => api("POST", "/api/admin/orders/1/refund-eligibility", { jar }) },
    { name: "POST …/refund", run: (jar?: CookieJar) => refund(1, { reason: "Nope", refundShipping: true }, jar) },
    { name: "GET …/refund", run: (jar?: CookieJar) => api("GET", "/api/admin/orders/1/refund", { jar }) },
  ];

  it.each(doors)("$name: 401 for a visitor, 403 for a non-admin, with readable messages", async ({ run }) => {
    const anonymous = await run();
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: "Please sign in to continue.", errors: {} });
    const ordinary = await run(shopper);
    expect(ordinary.status).toBe(403);
    expect(await ordinary.json()).toEqual({ message: "Admin access is required.", errors: {} });
  });

  it("answers an admin's wrong method with 405 and the allowed one", async () => {
    const response = await api("GET", "/api/admin/orders/1/refund", { jar: admin });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST, OPTIONS");
  });
});

describe("GET /api/admin/orders", () => {
  it("lists orders newest first as { orders }, each with items, money in dollars and the order number", async () => {
    const first = await paidOrder("list-1", 2);
    const second = await paidOrder("list-2");
    const response = await list(admin);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { orders: { id: number; items: unknown[] }[] };
    expect(Object.keys(body)).toEqual(["orders"]);
    expect(body.orders.map((o) => o.id).slice(0, 2)).toEqual([second.id, first.id]);
    const listed = body.orders.find((o) => o.id === first.id);
    expect(listed).toMatchObject({
      orderNumber: first.paymentIntentId.slice(-8).toUpperCase(),
      customerName: "Olga Orders",
      customerEmail: "olga@example.com",
      status: "processing",
      refundStatus: "none",
      refundAmount: 0,
      subtotal: 64,
      total: first.summary.total,
      shipping: first.summary.shipping,
      items: [{ productId, productName: "Sin Gritos Cap", productPrice: 32, quantity: 2, total: 64 }],
    });
    expect(JSON.parse((listed as unknown as { shippingAddress: string }).shippingAddress)).toMatchObject({
      city: "New York",
      zipCode: "10001",
    });
  });
});

describe("PATCH /api/admin/orders/{id}/status", () => {
  it("sets any of the five statuses, answers the updated order, and persists it", async () => {
    const order = await paidOrder("status-1");
    const response = await patchStatus(order.id, { status: "shipped" }, admin);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: order.id, status: "shipped", items: [{ productName: "Sin Gritos Cap" }] });
    const row = await ctx.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("shipped");
    for (const status of ["delivered", "cancelled", "pending", "processing"]) {
      expect((await (await patchStatus(order.id, { status }, admin)).json()).status).toBe(status);
    }
  });

  it("refuses a status outside the five with 400 naming the allowed values", async () => {
    const order = await paidOrder("status-2");
    const response = await patchStatus(order.id, { status: "lost" }, admin);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe("Status must be one of pending, processing, shipped, delivered, cancelled");
    expect(body.errors).toEqual({ status: [body.message] });
    expect((await patchStatus(order.id, "{oops", admin)).status).toBe(400);
    const row = await ctx.db.selectFrom("orders").select("status").where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("processing");
  });

  it("answers 404 for an unknown or malformed id", async () => {
    for (const id of ["999999", "abc", "0", "-1"]) {
      const response = await patchStatus(id, { status: "shipped" }, admin);
      expect(response.status).toBe(404);
      expect((await response.json()).message).toBe("Order not found.");
    }
  });
});

describe("refunds through REST", () => {
  it("reports eligibility in the spec's shape", async () => {
    const order = await paidOrder("eligible-1");
    const response = await eligibility(order.id, admin);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      eligible: true,
      eligibilityInfo: { message: "This order can be refunded." },
      order: {
        total: order.summary.total,
        shipping: order.summary.shipping,
        customerName: "Olga Orders",
        createdAt: expect.any(String),
        refundStatus: "none",
        refundAmount: 0,
      },
      // Beyond the spec: the figures the refund dialog shows, so the browser does no money arithmetic.
      refundable: { withShipping: order.summary.total, withoutShipping: expect.closeTo(order.summary.total - order.summary.shipping, 2) },
      existingRefunds: [],
    });
    expect((await eligibility(999999, admin)).status).toBe(404);
  });

  it("needs a reason that is not blank", async () => {
    const order = await paidOrder("reason-1");
    for (const body of [{ reason: "   ", refundShipping: false }, { refundShipping: true }]) {
      const response = await refund(order.id, body, admin);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        message: "Please provide a reason for the refund",
        errors: { reason: ["Please provide a reason for the refund"] },
      });
    }
  });

  it("refunds the total less shipping, records the admin, and refuses a second refund with 409", async () => {
    const order = await paidOrder("refund-1", 3);
    const response = await refund(order.id, { reason: "Arrived damaged", refundShipping: false }, admin);
    expect(response.status).toBe(201);
    const { refund: made } = await response.json();
    expect(made).toMatchObject({ reason: "Arrived damaged", status: "succeeded" });
    expect(made.amount).toBeCloseTo(order.summary.total - order.summary.shipping, 2);

    const stored = await ctx.db.selectFrom("refunds").selectAll().where("orderId", "=", order.id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ adminUserId: adminId, reason: "Arrived damaged", shippingRefunded: 0 });

    const again = await refund(order.id, { reason: "Again", refundShipping: true }, admin);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe("This order has already been refunded.");

    const after = await (await eligibility(order.id, admin)).json();
    expect(after).toMatchObject({
      eligible: false,
      eligibilityInfo: { message: "This order has already been refunded." },
      order: { refundStatus: "completed", refundAmount: made.amount },
      existingRefunds: [{ amount: made.amount, reason: "Arrived damaged", shippingRefunded: false }],
    });
  });

  it("includes shipping when asked", async () => {
    const order = await paidOrder("refund-2");
    const response = await refund(order.id, { reason: "Changed mind", refundShipping: true }, admin);
    expect((await response.json()).refund.amount).toBe(order.summary.total);
  });

  it("refuses an unpaid order with 409 in words", async () => {
    await ctx.db.insertInto("cartItems").values({ sessionId: "unpaid", productId, quantity: 1 }).execute();
    const order = await processOrder(ctx, { sessionId: "unpaid", customer, shippingMethod: "usps-ground_saver" });
    const response = await refund(order.orderSummary.orderId, { reason: "Never paid", refundShipping: false }, admin);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe("This order has not been paid, so there is nothing to refund.");
  });
});

describe("tRPC admin.orders", () => {
  const query = (name: string, input: unknown, jar?: CookieJar) =>
    api("GET", `/api/trpc/admin.orders.${name}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, {
      jar,
    });
  const mutate = (name: string, input: unknown, jar?: CookieJar) => api("POST", `/api/trpc/admin.orders.${name}`, { body: input, jar });
  const procedures = [
    { name: "list", run: (jar?: CookieJar) => query("list", undefined, jar) },
    { name: "detail", run: (jar?: CookieJar) => query("detail", { id: 1 }, jar) },
    { name: "refundEligibility", run: (jar?: CookieJar) => query("refundEligibility", { id: 1 }, jar) },
    { name: "setStatus", run: (jar?: CookieJar) => mutate("setStatus", { id: 1, status: "shipped" }, jar) },
    { name: "refund", run: (jar?: CookieJar) => mutate("refund", { id: 1, reason: "x", refundShipping: false }, jar) },
  ];

  it.each(procedures)("$name refuses a visitor (401) and a non-admin (403)", async ({ run }) => {
    expect((await run()).status).toBe(401);
    expect((await run(shopper)).status).toBe(403);
  });

  it("works for an admin over the same services", async () => {
    const order = await paidOrder("trpc-1");
    const listed = (await (await query("list", undefined, admin)).json()).result.data;
    expect(listed.orders[0]).toMatchObject({ id: order.id, items: [{ productName: "Sin Gritos Cap" }] });

    const updated = await mutate("setStatus", { id: order.id, status: "delivered" }, admin);
    expect((await updated.json()).result.data).toMatchObject({ id: order.id, status: "delivered" });
    expect((await mutate("setStatus", { id: order.id, status: "lost" }, admin)).status).toBe(400);

    const detail = (await (await query("detail", { id: order.id }, admin)).json()).result.data;
    expect(detail).toMatchObject({
      id: order.id,
      status: "delivered",
      shippingLabels: [{ status: "created", carrier: "USPS" }],
      refunds: [],
    });
    expect(detail.shippingLabels[0].labelUrl).toMatch(/^\/api\/admin\/labels\/.+\.pdf$/);
    const labelUrl = String(detail.shippingLabels[0].labelUrl);
    const pdf = await api("GET", labelUrl, { jar: admin });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect((await api("GET", labelUrl)).status).toBe(401);
    expect((await api("GET", "/api/admin/labels/..%2Fstore.db", { jar: admin })).status).toBe(404);
    expect((await query("detail", { id: 999999 }, admin)).status).toBe(404);

    expect((await (await query("refundEligibility", { id: order.id }, admin)).json()).result.data.eligible).toBe(true);
    const refunded = await mutate("refund", { id: order.id, reason: "Lost parcel", refundShipping: true }, admin);
    expect((await refunded.json()).result.data.refund.amount).toBe(order.summary.total);
    const row = await ctx.db.selectFrom("refunds").select("adminUserId").where("orderId", "=", order.id).executeTakeFirstOrThrow();
    expect(row.adminUserId).toBe(adminId);
    const twice = await mutate("refund", { id: order.id, reason: "Lost parcel", refundShipping: true }, admin);
    expect(twice.status).toBe(409);
    expect((await twice.json()).error.message).toBe("This order has already been refunded.");
  });
});

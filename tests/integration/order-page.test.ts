import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { fulfilDueOrders } from "#server/services/fulfilment/fulfilment";
import { ensureAdmin } from "#server/services/accounts/users";
import { processRefund } from "#server/services/orders/refunds";
import { orderPageToken, pageTokenOf } from "#server/services/orders/order-page-token";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { runRoute } from "./store-helpers";
import { successLoader, type SuccessData } from "#server/http/doors/checkout-door";
import { orderPageLoader } from "#server/http/doors/order-page-door";
import type { OrderPageView } from "#server/contracts/order-page";

const ctx = createTestContext({ PUBLIC_URL: "http://shop.test" });
const customer = {
  email: "Olive.Owner@example.com",
  name: "Olive Owner",
  phone: "",
  street: "1234 Market Street",
  city: "Portland",
  state: "OR",
  zipCode: "97201",
  country: "US",
};
let productId: number;
let adminId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  productId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Field Tee", description: "A tee", priceCents: 4000, inventory: 50 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "b@example.com" });
  adminId = (await ctx.db.selectFrom("users").select("id").executeTakeFirstOrThrow()).id;
});

async function paidOrder(sessionId: string) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 2 }).execute();
  const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
  await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
  await confirmPayment(ctx, order.paymentIntentId);
  return { ...order, id: order.orderSummary.orderId, number: order.orderSummary.orderNumber };
}

/** The link the confirmation e-mail carries, as the buyer gets it. */
async function linkFromConfirmation(orderNumber: string): Promise<string> {
  await fulfilDueOrders(ctx);
  const mail = await ctx.db
    .selectFrom("mailMessages")
    .select(["htmlBody", "textBody"])
    .where("tag", "=", "order-confirmation")
    .where("subject", "like", `%#${orderNumber}%`)
    .executeTakeFirstOrThrow();
  const match = /View your order: (\S+)/.exec(mail.textBody ?? "");
  expect(match, "the confirmation e-mail links to the order page").not.toBeNull();
  expect(mail.htmlBody).toContain(`href="${match![1]}"`);
  return match![1]!;
}

const tokenOf = (url: string) => new URL(url).pathname.replace(/^\/orders\//, "");

describe("GET /api/orders/{token}", () => {
  it("answers the order, field for field, private and unstored, from the confirmation e-mail's link", async () => {
    const order = await paidOrder("page-1");
    const url = await linkFromConfirmation(order.number);
    expect(url).toMatch(/^http:\/\/shop\.test\/orders\/[A-Za-z0-9_-]{43}$/);

    const response = await api("GET", `/api/orders/${tokenOf(url)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    const body = await response.json();
    const row = await ctx.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    const label = await ctx.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", order.id).executeTakeFirstOrThrow();
    expect(body).toEqual({
      orderNumber: order.number,
      status: "processing",
      refundStatus: "none",
      createdAt: row.createdAt,
      items: [{ productName: "Field Tee", size: null, quantity: 2, price: 40, total: 80 }],
      subtotal: 80,
      shipping: order.orderSummary.shipping,
      tax: order.orderSummary.tax,
      total: order.orderSummary.total,
      timeline: [
        { status: "placed", at: row.createdAt },
        { status: "paid", at: row.paidAt },
        { status: "label_created", at: label.createdAt },
      ],
      tracking: {
        carrier: "USPS",
        number: label.trackingNumber,
        url: `https://tools.usps.com/go/TrackConfirmAction?tLabels=${label.trackingNumber}`,
      },
    });
  });

  it("answers 404 for a tampered, made-up or malformed token, with the same message", async () => {
    const order = await paidOrder("page-2");
    const token = (await orderPageToken(ctx, order.id))!;
    expect((await api("GET", `/api/orders/${token}`)).status).toBe(200);
    const flipped = token.slice(0, 10) + (token[10] === "A" ? "B" : "A") + token.slice(11);
    for (const other of [
      flipped,
      token.slice(0, -1),
      `${token}A`,
      crypto.randomBytes(32).toString("base64url"),
      "1",
      "%00",
      "x".repeat(150),
    ]) {
      const response = await api("GET", `/api/orders/${encodeURIComponent(other)}`);
      expect(response.status, other).toBe(404);
      expect(await response.json()).toEqual({ message: "Order not found.", errors: {} });
    }
  });

  it("cannot be derived from anything the order exposes: not stored, not from the id, number, payment or nonce", async () => {
    const order = await paidOrder("page-3");
    const token = (await orderPageToken(ctx, order.id))!;
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(16);
    const row = await ctx.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    // The database does not hold it: only its hash and a nonce it is an HMAC of under the secret.
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.pageTokenHash).toBe(crypto.createHash("sha256").update(token).digest("hex"));
    const exposed = [String(order.id), order.number, order.paymentIntentId, row.createdAt, row.customerEmail, row.pageNonce!];
    const guesses = exposed.flatMap((value) => [
      value,
      Buffer.from(value).toString("base64url"),
      crypto.createHash("sha256").update(value).digest("base64url"),
      crypto.createHash("sha256").update(value).digest("hex"),
      crypto.createHmac("sha256", "").update(value).digest("base64url"),
    ]);
    for (const guess of guesses.filter((g) => g.length >= 8)) expect(token).not.toContain(guess.slice(0, 16));
    expect(token).not.toContain(order.number);
    // The store's secret is what makes it: another secret, another token, for the same order.
    expect(pageTokenOf("another-secret", row.pageNonce!)).not.toBe(token);
    // Two orders placed the same way get unrelated tokens.
    const twin = await paidOrder("page-3b");
    expect(await orderPageToken(ctx, twin.id)).not.toBe(token);
  });

  it("shows a refund in the timeline with its date", async () => {
    const order = await paidOrder("page-4");
    const token = (await orderPageToken(ctx, order.id))!;
    ctx.clock.advance(60_000);
    await processRefund(ctx, order.id, { reason: "Changed my mind", refundShipping: true }, adminId);
    const body = await (await api("GET", `/api/orders/${token}`)).json();
    const row = await ctx.db.selectFrom("orders").selectAll().where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(body.refundStatus).toBe("completed");
    expect(body.timeline.map((s: { status: string }) => s.status)).toEqual(["placed", "paid", "refunded"]);
    expect(body.timeline.at(-1)).toEqual({ status: "refunded", at: row.refundedAt });
    ctx.clock.advance(60_000);
  });
});

describe("the /orders/{token} page and /checkout-success", () => {
  async function boughtThroughTheApi() {
    const jar = new CookieJar();
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 1 }, jar })).status).toBe(201);
    const placed = await api("POST", "/api/process-order", { jar, body: { customerInfo: customer, shippingMethod: "usps-ground_saver" } });
    expect(placed.status).toBe(201);
    const { clientSecret, paymentIntentId } = await placed.json();
    const paid = await api("POST", "/api/local-payments/confirm", { jar, body: { clientSecret, cardNumber: "4242 4242 4242 4242" } });
    expect(paid.status).toBe(200);
    return { jar, paymentIntentId: paymentIntentId as string };
  }

  it("shows the order page's link on /checkout-success to the browser that paid, and to nobody else", async () => {
    const { jar, paymentIntentId } = await boughtThroughTheApi();
    const path = `/checkout-success?payment_intent=${paymentIntentId}`;
    await runRoute(successLoader, { path, jar });
    const mine = await runRoute<SuccessData>(successLoader, { path, jar });
    expect(mine.data).toMatchObject({ state: "paid", orderUrl: expect.stringMatching(/^\/orders\/[A-Za-z0-9_-]{43}$/) });
    const theirs = await runRoute<SuccessData>(successLoader, { path, jar: new CookieJar() });
    expect(theirs.data).toEqual({ state: "paid", orderNumber: paymentIntentId.slice(-8).toUpperCase() });

    const url = (mine.data as { orderUrl: string }).orderUrl;
    const page = await runRoute<OrderPageView>(orderPageLoader, { path: url, params: { token: url.split("/").pop()! } });
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.headers.get("X-Robots-Tag")).toBe("noindex");
    expect(page.data.shipTo).toEqual({ name: "Olive Owner", lines: ["1••• M••••• Street", "Portland, OR 97201", "US"] });
    expect(page.data.supportUrl).toBe(`/support?orderNumber=${page.data.orderNumber}`);
    expect(page.data.lines).toEqual([{ productName: "Field Tee", size: null, quantity: 1, price: 40, total: 40, imageUrl: null }]);
  });

  it("answers 404 for a tampered token, private and unindexed", async () => {
    const { jar, paymentIntentId } = await boughtThroughTheApi();
    const path = `/checkout-success?payment_intent=${paymentIntentId}`;
    await runRoute(successLoader, { path, jar });
    const url = ((await runRoute<SuccessData>(successLoader, { path, jar })).data as { orderUrl: string }).orderUrl;
    const token = url.split("/").pop()!;
    const tampered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    const page = await runRoute(orderPageLoader, { path: `/orders/${tampered}`, params: { token: tampered } });
    expect(page.status).toBe(404);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.headers.get("X-Robots-Tag")).toBe("noindex");
  });
});

describe("the moment of payment", () => {
  it("keeps in the bag what the payment did not buy: a line added in another tab during checkout", async () => {
    const capId = (
      await ctx.db
        .insertInto("products")
        .values({ name: "Cap", description: "A cap", priceCents: 3000, inventory: 10 })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    const sessionId = "two-tabs";
    await ctx.db.insertInto("cartItems").values({ sessionId, productId: capId, quantity: 1 }).execute();
    const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
    // The other tab, while this one is at the card step: a tee, and one more cap.
    await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
    await ctx.db.updateTable("cartItems").set({ quantity: 2 }).where("sessionId", "=", sessionId).where("productId", "=", capId).execute();
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
    expect((await confirmPayment(ctx, order.paymentIntentId)).status).toBe("paid");

    const bag = await ctx.db
      .selectFrom("cartItems")
      .select(["productId", "quantity"])
      .where("sessionId", "=", sessionId)
      .orderBy("id")
      .execute();
    expect(bag).toEqual([
      { productId: capId, quantity: 1 },
      { productId, quantity: 1 },
    ]);
    const items = await ctx.db
      .selectFrom("orderItems")
      .select(["productId", "quantity"])
      .where("orderId", "=", order.orderSummary.orderId)
      .execute();
    expect(items).toEqual([{ productId: capId, quantity: 1 }]);
  });
});

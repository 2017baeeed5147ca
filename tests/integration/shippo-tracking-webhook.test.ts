// Issue 25: "shipped" from the carrier. Shippo's track_updated webhook moves a paid order with the
// store's label to shipped (TRANSIT) and delivered (DELIVERED), only forward, the buyer's e-mail
// once per order; the secret in its URL is the only way in.
import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { setOrderStatus } from "#server/services/orders/admin-orders";
import { createTestContext } from "../setup/context";
import { api } from "../setup/http";
import { shippoTrackUpdated } from "../mocks/shippo-tracking";
import { runFulfilmentJob } from "./store-helpers";

const TOKEN = "whk_" + "a1B2c3D4e5".repeat(4);
const ctx = createTestContext({ PUBLIC_URL: "http://shop.test", SHIPPO_WEBHOOK_TOKEN: TOKEN });
let productId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  productId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Track Tee", description: "A tee", priceCents: 3000, inventory: 50 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});

async function paidOrderWithLabel(sessionId: string) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
  const customer = {
    email: `${sessionId}@example.com`,
    name: "Tia Tracked",
    phone: "",
    street: "3 Bay St",
    city: "Boston",
    state: "MA",
    zipCode: "02101",
    country: "US",
  };
  const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
  await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
  await confirmPayment(ctx, order.paymentIntentId);
  await runFulfilmentJob(ctx);
  const label = await ctx.db
    .selectFrom("shippingLabels")
    .select("trackingNumber")
    .where("orderId", "=", order.orderSummary.orderId)
    .where("status", "=", "created")
    .executeTakeFirstOrThrow();
  return { id: order.orderSummary.orderId, email: customer.email, trackingNumber: label.trackingNumber };
}

const hook = (body: unknown, token = TOKEN) => api("POST", `/api/webhooks/shippo/${token}`, { body });
const statusOf = async (id: number) =>
  (await ctx.db.selectFrom("orders").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
const mails = (email: string, tag: string) =>
  ctx.db.selectFrom("mailMessages").select("subject").where("toAddress", "=", email).where("tag", "=", tag).execute();

describe("Shippo's tracking webhook", () => {
  it("moves the order to shipped on TRANSIT and sends Your order has shipped once, however often and however many at once", async () => {
    const order = await paidOrderWithLabel("track-1");
    expect(await statusOf(order.id)).toBe("processing");
    const answers = await Promise.all([1, 2, 3].map(() => hook(shippoTrackUpdated(order.trackingNumber, "TRANSIT"))));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const outcomes = await Promise.all(answers.map(async (a) => ((await a.json()) as { outcome: string }).outcome));
    expect(outcomes.filter((o) => o === "moved")).toHaveLength(1);
    expect(await statusOf(order.id)).toBe("shipped");
    expect(await mails(order.email, "order-shipped")).toHaveLength(1);
    expect((await hook(shippoTrackUpdated(order.trackingNumber, "TRANSIT"))).status).toBe(200);
    expect(await mails(order.email, "order-shipped")).toHaveLength(1);
  });

  it("moves it to delivered on DELIVERED, never back to shipped on a late TRANSIT, one delivered e-mail", async () => {
    const order = await paidOrderWithLabel("track-2");
    await hook(shippoTrackUpdated(order.trackingNumber, "DELIVERED"));
    expect(await statusOf(order.id)).toBe("delivered");
    await hook(shippoTrackUpdated(order.trackingNumber, "TRANSIT"));
    await hook(shippoTrackUpdated(order.trackingNumber, "DELIVERED"));
    expect(await statusOf(order.id)).toBe("delivered");
    expect(await mails(order.email, "order-delivered")).toHaveLength(1);
  });

  it("leaves a cancelled order, other statuses, other events and labels not the store's as they are", async () => {
    const order = await paidOrderWithLabel("track-3");
    for (const status of ["PRE_TRANSIT", "UNKNOWN", "RETURNED", "FAILURE"] as const) {
      const answer = await hook(shippoTrackUpdated(order.trackingNumber, status));
      expect(answer.status).toBe(200);
    }
    expect(await statusOf(order.id)).toBe("processing");
    const other = await hook({ ...shippoTrackUpdated(order.trackingNumber, "TRANSIT"), event: "transaction_created" });
    expect(await other.json()).toMatchObject({ received: true, outcome: "ignored" });
    const stranger = await hook(shippoTrackUpdated("9400100000000000000000", "TRANSIT"));
    expect(await stranger.json()).toMatchObject({ received: true, outcome: "unknown-label" });
    expect(await statusOf(order.id)).toBe("processing");
    await setOrderStatus(ctx, order.id, "cancelled");
    await hook(shippoTrackUpdated(order.trackingNumber, "TRANSIT"));
    expect(await statusOf(order.id)).toBe("cancelled");
    expect(await mails(order.email, "order-shipped")).toHaveLength(0);
  });

  it("answers 404 to a wrong, short or missing token and changes nothing; 400 to a body that is not an event", async () => {
    const order = await paidOrderWithLabel("track-4");
    for (const token of [TOKEN.slice(0, -1) + "x", "short", TOKEN + "a", encodeURIComponent(" " + TOKEN)]) {
      const answer = await hook(shippoTrackUpdated(order.trackingNumber, "TRANSIT"), token);
      expect(answer.status, token).toBe(404);
    }
    expect((await api("POST", "/api/webhooks/shippo", { body: shippoTrackUpdated(order.trackingNumber, "TRANSIT") })).status).toBe(404);
    expect(await statusOf(order.id)).toBe("processing");
    expect((await hook({ event: "track_updated", data: { tracking_number: "x".repeat(101) } })).status).toBe(400);
    expect((await hook("not json")).status).toBe(400);
    expect(
      (
        await api("POST", `/api/webhooks/shippo/${TOKEN}`, {
          body: "x".repeat(1024 * 1024 + 1),
          headers: { "Content-Type": "application/json" },
        })
      ).status,
    ).toBe(413);
  });
});

describe("Shippo's tracking webhook without SHIPPO_WEBHOOK_TOKEN", () => {
  const bare = createTestContext();
  it("is not there", async () => {
    useAppContextForTests(bare);
    try {
      expect((await api("POST", `/api/webhooks/shippo/${TOKEN}`, { body: shippoTrackUpdated("x", "TRANSIT") })).status).toBe(404);
    } finally {
      useAppContextForTests(ctx);
    }
  });
});

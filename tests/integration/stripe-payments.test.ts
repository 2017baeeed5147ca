import { http } from "msw";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { paymentsFor } from "#server/integrations/payments";
import { processOrder } from "#server/services/checkout/checkout";
import { releaseExpiredHolds } from "#server/services/cart/holds";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { handleStripeEvent } from "#server/services/checkout/payment-events";
import { mockServer } from "../mocks/server";
import { STRIPE_API, stripeError, stripeEvent, stripeState } from "../mocks/stripe";
import { createTestContext } from "../setup/context";
import { runFulfilmentJob } from "./store-helpers";
import { api, send } from "../setup/http";
import { expectLoggedErrors, loggedAt } from "../setup/log-capture";

const WEBHOOK_SECRET = "whsec_test";
const ctx = createTestContext({
  STRIPE_SECRET_KEY: "sk_test_x",
  STRIPE_PUBLISHABLE_KEY: "pk_test_x",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
});
const unconfigured = createTestContext();
const stripe = new Stripe("sk_test_x");

const customer = {
  email: "buyer@example.com",
  name: "Buyer One",
  phone: "",
  street: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
};
let teeId: number;

beforeAll(async () => {
  teeId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Tee", description: "A plain tee for the Stripe tests", priceCents: 4999, discountPercent: 15, inventory: 100 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  useAppContextForTests(ctx);
});
afterAll(() => stripeState.reset());

/** A bag with `quantity` tees, and Process Order for it. */
async function checkout(sessionId: string, quantity = 1) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId: teeId, quantity }).execute();
  const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
  return { ...order, orderId: order.orderSummary.orderId };
}

/** POSTs a webhook the way Stripe does: the JSON body, signed with the endpoint's secret. */
async function deliver(event: object | string, options: { secret?: string; signature?: string | null } = {}) {
  const payload = typeof event === "string" ? event : JSON.stringify(event);
  const signature =
    options.signature === undefined
      ? stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET })
      : options.signature;
  const headers = new Headers({
    "Content-Type": "application/json; charset=utf-8",
    "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
  });
  if (signature !== null) headers.set("Stripe-Signature", signature);
  const request = new Request("http://localhost/api/webhooks/stripe", { method: "POST", headers, body: payload });
  return send(request);
}

const orderRow = (id: number) => ctx.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const holdsOf = async (id: number) =>
  (await ctx.db.selectFrom("inventoryHolds").select("status").where("orderId", "=", id).execute()).map((h) => h.status);
const labelsOf = (id: number) => ctx.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", id).execute();
const mailsFor = (orderNumber: string) =>
  ctx.db.selectFrom("mailMessages").selectAll().where("subject", "like", `%#${orderNumber}%`).execute();
const inventory = async () =>
  (await ctx.db.selectFrom("products").select("inventory").where("id", "=", teeId).executeTakeFirstOrThrow()).inventory;

describe("Stripe PaymentIntents", () => {
  it("Process Order creates a PaymentIntent in cents and USD, with the order id and an idempotency key", async () => {
    const order = await checkout("create-1", 2);
    const [sent, ...more] = stripeState.seen("POST", "/v1/payment_intents");
    expect(more).toEqual([]);
    const totalCents = Math.round(order.orderSummary.total * 100);
    expect(sent!.params).toEqual({
      amount: String(totalCents),
      currency: "usd",
      receipt_email: "buyer@example.com",
      metadata: { orderId: String(order.orderId) },
      automatic_payment_methods: { enabled: "true" },
    });
    // Our own key, not the SDK's automatic "stripe-node-retry-…" one.
    expect(sent!.idempotencyKey).toMatch(new RegExp(`^order-${order.orderId}-[0-9a-f]{8}$`));

    const intent = stripeState.intent(order.paymentIntentId);
    expect(order.clientSecret).toBe(intent.client_secret);
    expect(intent).toMatchObject({ amount: totalCents, currency: "usd", status: "requires_payment_method" });
    expect(order.orderSummary.orderNumber).toBe(order.paymentIntentId.slice(-8).toUpperCase());
    expect((await orderRow(order.orderId)).paymentIntentId).toBe(order.paymentIntentId);

    // A retried create with the same key gets the same PaymentIntent back, as from Stripe.
    const again = await paymentsFor(ctx).createIntent({
      amountCents: totalCents,
      orderId: order.orderId,
      email: customer.email,
      idempotencyKey: sent!.idempotencyKey!,
    });
    expect(again).toEqual({ id: order.paymentIntentId, clientSecret: order.clientSecret });
    expect([...stripeState.intents.values()].filter((i) => i.metadata.orderId === String(order.orderId))).toHaveLength(1);
  });

  it("confirmPayment asks Stripe and does not trust an unpaid intent; a decline keeps the hold", async () => {
    const order = await checkout("confirm-1");
    expect(await confirmPayment(ctx, order.paymentIntentId)).toMatchObject({ status: "pending" });
    expect(stripeState.seen("GET", `/v1/payment_intents/${order.paymentIntentId}`)).toHaveLength(1);
    expect((await orderRow(order.orderId)).status).toBe("pending");

    stripeState.decline(order.paymentIntentId);
    expect(await confirmPayment(ctx, order.paymentIntentId)).toMatchObject({ status: "failed", message: "Your card was declined." });
    expect(await holdsOf(order.orderId)).toEqual(["held"]);
    expect(await labelsOf(order.orderId)).toEqual([]);

    stripeState.succeed(order.paymentIntentId);
    expect(await confirmPayment(ctx, order.paymentIntentId)).toMatchObject({ status: "paid", firstTime: true });
    const row = await orderRow(order.orderId);
    expect(row.status).toBe("processing");
    expect(row.paidAt).not.toBeNull();
    expect(await holdsOf(order.orderId)).toEqual(["sold"]);
    await runFulfilmentJob(ctx);
    expect(await mailsFor(order.orderSummary.orderNumber)).toHaveLength(1);
    expect(await labelsOf(order.orderId)).toEqual([expect.objectContaining({ status: "created" })]);
  });

  it("refunds send an idempotency key, are not repeated by a retry, and cannot exceed the payment", async () => {
    const order = await checkout("refund-1");
    stripeState.succeed(order.paymentIntentId);
    await confirmPayment(ctx, order.paymentIntentId);
    const payments = paymentsFor(ctx);
    const first = await payments.refund({
      paymentIntentId: order.paymentIntentId,
      amountCents: 500,
      idempotencyKey: `refund-${order.orderId}-1`,
    });
    expect(first.status).toBe("succeeded");
    const [sent] = stripeState.seen("POST", "/v1/refunds");
    expect(sent).toMatchObject({
      idempotencyKey: `refund-${order.orderId}-1`,
      params: { payment_intent: order.paymentIntentId, amount: "500" },
    });

    const retried = await payments.refund({
      paymentIntentId: order.paymentIntentId,
      amountCents: 500,
      idempotencyKey: `refund-${order.orderId}-1`,
    });
    expect(retried.id).toBe(first.id);
    expect([...stripeState.refunds.values()].filter((r) => r.payment_intent === order.paymentIntentId)).toHaveLength(1);

    const totalCents = Math.round(order.orderSummary.total * 100);
    await expect(
      payments.refund({ paymentIntentId: order.paymentIntentId, amountCents: totalCents, idempotencyKey: `refund-${order.orderId}-2` }),
    ).rejects.toThrow("is greater than unrefunded amount");
  });

  it("an expired hold cancels the PaymentIntent at Stripe and puts the units back", async () => {
    const before = await inventory();
    const order = await checkout("expire-1", 3);
    expect(await inventory()).toBe(before - 3);
    ctx.clock.advance(ctx.config.holdMinutes * 60_000 + 1);
    await releaseExpiredHolds(ctx);
    expect(stripeState.seen("POST", `/v1/payment_intents/${order.paymentIntentId}/cancel`)).toHaveLength(1);
    expect(stripeState.intent(order.paymentIntentId).status).toBe("canceled");
    expect((await orderRow(order.orderId)).status).toBe("cancelled");
    expect(await holdsOf(order.orderId)).toEqual(["released"]);
    expect(await inventory()).toBeGreaterThanOrEqual(before);
  });
});

describe("POST /api/webhooks/stripe", () => {
  it("takes a correctly signed succeeded event, pays the order, and processes a redelivery once", async () => {
    const order = await checkout("hook-1");
    stripeState.succeed(order.paymentIntentId);
    const event = stripeEvent("payment_intent.succeeded", order.paymentIntentId);

    const response = await deliver(event);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true });
    expect((await orderRow(order.orderId)).status).toBe("processing");

    const redelivered = await deliver(event);
    expect(redelivered.status).toBe(200);
    expect(await ctx.db.selectFrom("paymentEvents").selectAll().where("id", "=", event.id).execute()).toEqual([
      expect.objectContaining({ type: "payment_intent.succeeded", paymentIntentId: order.paymentIntentId }),
    ]);
    await runFulfilmentJob(ctx);
    expect(await mailsFor(order.orderSummary.orderNumber)).toHaveLength(1);
    expect(await labelsOf(order.orderId)).toHaveLength(1);
    expect(await handleStripeEvent(ctx, event as unknown as Stripe.Event)).toEqual({ duplicate: true });
  });

  it("gives one transition whether the succeeded event comes before or after the buyer's confirm, or at the same time", async () => {
    const webhookFirst = await checkout("order-a");
    stripeState.succeed(webhookFirst.paymentIntentId);
    expect(
      await handleStripeEvent(ctx, stripeEvent("payment_intent.succeeded", webhookFirst.paymentIntentId) as unknown as Stripe.Event),
    ).toMatchObject({
      action: "confirmed",
      outcome: { status: "paid", firstTime: true },
    });
    expect(await confirmPayment(ctx, webhookFirst.paymentIntentId)).toMatchObject({ status: "paid", firstTime: false });

    const confirmFirst = await checkout("order-b");
    stripeState.succeed(confirmFirst.paymentIntentId);
    expect(await confirmPayment(ctx, confirmFirst.paymentIntentId)).toMatchObject({ status: "paid", firstTime: true });
    expect(
      await handleStripeEvent(ctx, stripeEvent("payment_intent.succeeded", confirmFirst.paymentIntentId) as unknown as Stripe.Event),
    ).toMatchObject({
      action: "confirmed",
      outcome: { status: "paid", firstTime: false },
    });

    const racing = await checkout("order-c");
    stripeState.succeed(racing.paymentIntentId);
    const event = stripeEvent("payment_intent.succeeded", racing.paymentIntentId);
    const [hookA, hookB, confirmA, confirmB] = await Promise.all([
      deliver(event),
      deliver(event),
      confirmPayment(ctx, racing.paymentIntentId),
      confirmPayment(ctx, racing.paymentIntentId),
    ]);
    expect([hookA.status, hookB.status]).toEqual([200, 200]);
    expect([confirmA, confirmB].filter((o) => o.status === "paid")).toHaveLength(2);

    await runFulfilmentJob(ctx);
    for (const order of [webhookFirst, confirmFirst, racing]) {
      expect((await orderRow(order.orderId)).status).toBe("processing");
      expect(await holdsOf(order.orderId)).toEqual(["sold"]);
      expect(await mailsFor(order.orderSummary.orderNumber)).toHaveLength(1);
      expect(await labelsOf(order.orderId)).toHaveLength(1);
    }
  });

  it("refuses a bad or missing signature with 400 and changes nothing", async () => {
    const order = await checkout("bad-sig");
    stripeState.succeed(order.paymentIntentId);
    const event = stripeEvent("payment_intent.succeeded", order.paymentIntentId);
    const payload = JSON.stringify(event);
    const goodSignature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });

    const attempts = [
      await deliver(event, { secret: "whsec_someone_else" }),
      await deliver(event, { signature: null }),
      await deliver(event, { signature: "t=1,v1=deadbeef" }),
      // Signed, then altered in transit.
      await deliver(payload.replace('"livemode":false', '"livemode":true'), { signature: goodSignature }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: "Invalid signature.", errors: {} });
    }
    expect(await ctx.db.selectFrom("paymentEvents").select("id").where("id", "=", event.id).execute()).toEqual([]);
    expect(await orderRow(order.orderId)).toMatchObject({ status: "pending", paidAt: null });
    expect(await holdsOf(order.orderId)).toEqual(["held"]);
  });

  it("a canceled event releases the hold and puts the units back", async () => {
    const before = await inventory();
    const order = await checkout("cancel-1", 2);
    expect(await inventory()).toBe(before - 2);
    stripeState.cancel(order.paymentIntentId);
    const response = await deliver(stripeEvent("payment_intent.canceled", order.paymentIntentId));
    expect(response.status).toBe(200);
    expect((await orderRow(order.orderId)).status).toBe("cancelled");
    expect(await holdsOf(order.orderId)).toEqual(["released"]);
    expect(await inventory()).toBe(before);
  });

  it("a payment_failed event keeps the hold, and the buyer can pay with another card", async () => {
    const order = await checkout("failed-1");
    stripeState.decline(order.paymentIntentId, "Your card has insufficient funds.");
    expect(
      await handleStripeEvent(ctx, stripeEvent("payment_intent.payment_failed", order.paymentIntentId) as unknown as Stripe.Event),
    ).toEqual({
      duplicate: false,
      action: "kept",
      orderId: order.orderId,
    });
    expect(await orderRow(order.orderId)).toMatchObject({ status: "pending", paidAt: null });
    expect(await holdsOf(order.orderId)).toEqual(["held"]);

    stripeState.succeed(order.paymentIntentId);
    expect((await deliver(stripeEvent("payment_intent.succeeded", order.paymentIntentId))).status).toBe(200);
    expect((await orderRow(order.orderId)).status).toBe("processing");
  });

  it("forgets an event whose processing failed, so Stripe's retry is processed", async () => {
    const order = await checkout("retry-1");
    stripeState.succeed(order.paymentIntentId);
    const event = stripeEvent("payment_intent.succeeded", order.paymentIntentId);
    mockServer.use(
      http.get(`${STRIPE_API}/v1/payment_intents/:id`, () => {
        const response = stripeError(500, "api_error", "An unknown error occurred");
        response.headers.set("Stripe-Should-Retry", "false");
        return response;
      }),
    );
    expectLoggedErrors();
    const failed = await deliver(event);
    expect(failed.status).toBe(500);
    expect(loggedAt("error")).toHaveLength(1);
    expect(await ctx.db.selectFrom("paymentEvents").select("id").where("id", "=", event.id).execute()).toEqual([]);
    expect((await orderRow(order.orderId)).status).toBe("pending");

    mockServer.resetHandlers();
    expect((await deliver(event)).status).toBe(200);
    expect((await orderRow(order.orderId)).status).toBe("processing");
    await runFulfilmentJob(ctx);
    expect(await mailsFor(order.orderSummary.orderNumber)).toHaveLength(1);
  });

  it("acknowledges events that are not this store's to act on", async () => {
    const foreign = await stripe.paymentIntents.create({ amount: 2500, currency: "usd" });
    stripeState.succeed(foreign.id);
    expect(await handleStripeEvent(ctx, stripeEvent("payment_intent.succeeded", foreign.id) as unknown as Stripe.Event)).toEqual({
      duplicate: false,
      action: "ignored",
    });
    expect(
      await handleStripeEvent(ctx, {
        id: "evt_charge_1",
        type: "charge.refunded",
        data: { object: { id: "ch_1", object: "charge" } },
      } as unknown as Stripe.Event),
    ).toEqual({
      duplicate: false,
      action: "ignored",
    });
    expect((await deliver(stripeEvent("payment_intent.created", foreign.id))).status).toBe(200);
  });

  it("answers 404 when Stripe is not configured, and 405 to anything but POST", async () => {
    useAppContextForTests(unconfigured);
    try {
      const order = { id: "evt_x", type: "payment_intent.succeeded", data: { object: {} } };
      const response = await deliver(order);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: "Stripe webhooks are not configured.", errors: {} });
    } finally {
      useAppContextForTests(ctx);
    }
    expect((await api("GET", "/api/webhooks/stripe")).status).toBe(405);
  });
});

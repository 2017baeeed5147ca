import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as checkoutPage from "#app/routes/checkout";
import * as successPage from "#app/routes/checkout-success";
import * as payPage from "#app/routes/checkout_.pay.$paymentIntentId";
import { useAppContextForTests } from "#server/boot";
import { releaseExpiredHolds } from "#server/services/cart/holds";
import { confirmStrandedPayments } from "#server/services/checkout/stranded-payments";
import type { PayActionData, SuccessData } from "#server/http/doors/checkout-door";
import { stripeEvent, stripeSessionEvent, stripeState } from "../mocks/stripe";
import { createTestContext } from "../setup/context";
import { api, CookieJar, send } from "../setup/http";
import { addProduct, runFulfilmentJob, runRoute } from "./store-helpers";
import { loggedAt } from "../setup/log-capture";

// Stripe configured, a browser without JavaScript: the pay page sends the buyer to Stripe's hosted
// Checkout, and the return page or the webhook confirms the order through the one service.
const WEBHOOK_SECRET = "whsec_hosted";
const ctx = createTestContext({
  STRIPE_SECRET_KEY: "sk_test_hosted",
  STRIPE_PUBLISHABLE_KEY: "pk_test_hosted",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  BRAND_NAME: "Legacy",
});
const customer = {
  email: "nojs@example.com",
  name: "Noah Script",
  phone: "",
  street: "350 5th Ave",
  city: "New York",
  state: "NY",
  zipCode: "10001",
  country: "US",
};
let productId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  productId = await addProduct(ctx, { name: "Hosted Tee", priceCents: 4000, inventory: 50 });
});
afterAll(() => stripeState.reset());

/** A bag, Process Order (Stripe PaymentIntent), and the pay page's button. */
async function sentToStripe() {
  const jar = new CookieJar();
  await api("POST", "/api/cart", { body: { productId, quantity: 2 }, jar });
  const processed = await runRoute(checkoutPage.action, {
    path: "/checkout",
    form: { intent: "process", ...customer, shippingMethod: "usps-ground_saver" },
    jar,
  });
  const paymentIntentId = (processed.headers.get("Location") ?? "").split("/").pop()!;
  expect(paymentIntentId).toMatch(/^pi_/);
  const order = await ctx.db.selectFrom("orders").selectAll().where("paymentIntentId", "=", paymentIntentId).executeTakeFirstOrThrow();
  const button = await runRoute<PayActionData>(payPage.action, {
    path: `/checkout/pay/${paymentIntentId}`,
    params: { paymentIntentId },
    form: {},
    jar,
  });
  return { jar, paymentIntentId, order, button };
}

const success = (query: string) => runRoute<SuccessData>(successPage.loader, { path: `/checkout-success${query}` });
const orderOf = (id: number) => ctx.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const mailsTo = async () =>
  ctx.db
    .selectFrom("mailMessages")
    .select("subject")
    .where("toAddress", "=", customer.email)
    .where("tag", "=", "order-confirmation")
    .execute();

async function deliver(event: object) {
  const payload = JSON.stringify(event);
  const signature = new Stripe("sk_test_hosted").webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const request = new Request("http://localhost/api/webhooks/stripe", {
    method: "POST",
    headers: { "Content-Type": "application/json", "Stripe-Signature": signature },
    body: payload,
  });
  return send(request);
}

describe("paying on Stripe's hosted Checkout without JavaScript", () => {
  it("sends the buyer to a session for the order's exact total, returning to /checkout-success", async () => {
    const { order, button, paymentIntentId, jar } = await sentToStripe();
    expect(button.status).toBe(303);
    const [session] = [...stripeState.sessions.values()].slice(-1);
    expect(button.headers.get("Location")).toBe(session!.url);
    expect(session!.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);

    const [sent] = stripeState.seen("POST", "/v1/checkout/sessions").slice(-1);
    const number = paymentIntentId.slice(-8).toUpperCase();
    expect(sent!.params).toEqual({
      mode: "payment",
      line_items: {
        "0": {
          quantity: "1",
          price_data: { currency: "usd", unit_amount: String(order.totalCents), product_data: { name: `Legacy order #${number}` } },
        },
      },
      customer_email: customer.email,
      client_reference_id: String(order.id),
      metadata: { orderId: String(order.id) },
      payment_intent_data: { receipt_email: customer.email, metadata: { orderId: String(order.id) } },
      success_url: "http://localhost/checkout-success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: `http://localhost/checkout/pay/${paymentIntentId}`,
      // Stripe's minimum is 30 minutes after creation: 31 after the hold ends.
      expires_at: String(Math.floor(Date.parse(order.holdExpiresAt!) / 1000) + 31 * 60),
    });
    expect(sent!.idempotencyKey).toBe(`checkout-session-${order.id}-${paymentIntentId}`);
    expect((await orderOf(order.id)).checkoutSessionId).toBe(session!.id);

    // A second click a minute later (or back from Stripe's page) gets the same session, not an error.
    ctx.clock.advance(60_000);
    try {
      const again = await runRoute<PayActionData>(payPage.action, {
        path: `/checkout/pay/${paymentIntentId}`,
        params: { paymentIntentId },
        form: {},
        jar,
      });
      expect(again.status).toBe(303);
      expect(again.headers.get("Location")).toBe(session!.url);
    } finally {
      ctx.clock.advance(-60_000);
    }
    expect([...stripeState.sessions.values()].filter((s) => s.metadata.orderId === String(order.id))).toHaveLength(1);
  });

  it("confirms the order with the session's payment on return: paid once, the unused intent cancelled, one e-mail", async () => {
    const { order, paymentIntentId, jar } = await sentToStripe();
    const session = [...stripeState.sessions.values()].at(-1)!;

    // Back before paying (Stripe's back link lands on the pay page; the success page says pending).
    expect((await success(`?session_id=${session.id}`)).data).toMatchObject({ state: "pending" });

    stripeState.paySession(session.id);
    const paidIntent = session.payment_intent!;
    // The request that confirms shows the outcome once more, so the header counts the emptied bag.
    const page = await success(`?session_id=${session.id}`);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(`/checkout-success?payment_intent=${paidIntent}`);
    expect((await success(`?payment_intent=${paidIntent}`)).data).toEqual({
      state: "paid",
      orderNumber: paidIntent.slice(-8).toUpperCase(),
    });

    const row = await orderOf(order.id);
    expect(row).toMatchObject({ status: "processing", paymentIntentId: paidIntent });
    expect(row.paidAt).not.toBeNull();
    expect(stripeState.intent(paymentIntentId).status).toBe("canceled");
    expect((await api("GET", "/api/cart", { jar }).then((r) => r.json())).cartItems).toEqual([]);

    // Reloading the page and the webhook arriving late change nothing.
    expect((await success(`?session_id=${session.id}`)).data).toMatchObject({ state: "paid" });
    expect((await deliver(stripeSessionEvent("checkout.session.completed", session.id))).status).toBe(200);
    expect((await deliver(stripeEvent("payment_intent.canceled", paymentIntentId))).status).toBe(200);
    expect(await orderOf(order.id)).toMatchObject({ status: "processing", paymentIntentId: paidIntent });
    await runFulfilmentJob(ctx);
    expect((await mailsTo()).filter((m) => m.subject.includes(paidIntent.slice(-8).toUpperCase()))).toHaveLength(1);
  });

  it("confirms through the checkout.session.completed webhook when the buyer never comes back", async () => {
    const { order } = await sentToStripe();
    const session = [...stripeState.sessions.values()].at(-1)!;
    stripeState.paySession(session.id);
    // The session's own payment_intent.succeeded may come first: not yet this store's payment.
    expect((await deliver(stripeEvent("payment_intent.succeeded", session.payment_intent!))).status).toBe(200);
    expect((await orderOf(order.id)).paidAt).toBeNull();

    expect((await deliver(stripeSessionEvent("checkout.session.completed", session.id))).status).toBe(200);
    expect(await orderOf(order.id)).toMatchObject({ status: "processing", paymentIntentId: session.payment_intent });
  });

  it("refunds the second payment when the order was paid in another tab as well", async () => {
    const { order, paymentIntentId } = await sentToStripe();
    const session = [...stripeState.sessions.values()].at(-1)!;
    stripeState.succeed(paymentIntentId);
    stripeState.paySession(session.id);
    const page = await success(`?session_id=${session.id}`);
    expect(loggedAt("warn")).toEqual([expect.stringMatching(/ paid an order already paid by .*: refunded in full\.$/)]);
    expect(page.headers.get("Location")).toBe(`/checkout-success?payment_intent=${paymentIntentId}`);
    expect((await success(`?session_id=${session.id}`)).data).toEqual({
      state: "paid",
      orderNumber: paymentIntentId.slice(-8).toUpperCase(),
    });
    expect(await orderOf(order.id)).toMatchObject({ paymentIntentId, status: "processing" });
    const refunds = [...stripeState.refunds.values()].filter((r) => r.payment_intent === session.payment_intent);
    expect(refunds.map((r) => r.amount)).toEqual([order.totalCents]);
  });

  it("closes Stripe's page when the hold runs out, unless the buyer paid there already", async () => {
    const open = await sentToStripe();
    const openSession = [...stripeState.sessions.values()].at(-1)!;
    const paid = await sentToStripe();
    const paidSession = [...stripeState.sessions.values()].at(-1)!;
    stripeState.paySession(paidSession.id);

    ctx.clock.advance((ctx.config.holdMinutes + 1) * 60_000);
    const stranded: number[] = [];
    try {
      await releaseExpiredHolds(ctx);
      stranded.push((await orderOf(paid.order.id)).status === "pending" ? 1 : 0);
      // No webhook, the buyer gone: the sweeper's next step confirms what was paid.
      stranded.push(await confirmStrandedPayments(ctx), await confirmStrandedPayments(ctx));
    } finally {
      ctx.clock.advance(-(ctx.config.holdMinutes + 1) * 60_000);
    }
    // Left pending by the expiry, then confirmed once.
    expect(stranded).toEqual([1, 1, 0]);
    expect(openSession.status).toBe("expired");
    expect(await orderOf(open.order.id)).toMatchObject({ status: "cancelled", paidAt: null });
    expect(stripeState.intent(open.paymentIntentId).status).toBe("canceled");

    expect(await orderOf(paid.order.id)).toMatchObject({ status: "processing", paymentIntentId: paidSession.payment_intent });
    expect((await success(`?session_id=${paidSession.id}`)).data).toMatchObject({ state: "paid" });
  });

  it("a Payment Element payment returning from Stripe (3-D Secure) is shown after one redirect, for the same reason", async () => {
    const { paymentIntentId } = await sentToStripe();
    stripeState.succeed(paymentIntentId);
    const query = `?payment_intent=${paymentIntentId}&redirect_status=succeeded`;
    const first = await success(query);
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe(`/checkout-success?payment_intent=${paymentIntentId}`);
    expect((await success(`?payment_intent=${paymentIntentId}`)).data).toEqual({
      state: "paid",
      orderNumber: paymentIntentId.slice(-8).toUpperCase(),
    });
  });

  it("refuses an expired hold and an unknown session, and needs Stripe for a session id", async () => {
    const { paymentIntentId, jar } = await sentToStripe();
    ctx.clock.advance((ctx.config.holdMinutes + 1) * 60_000);
    try {
      const late = await runRoute<PayActionData>(payPage.action, {
        path: `/checkout/pay/${paymentIntentId}`,
        params: { paymentIntentId },
        form: {},
        jar,
      });
      expect(late.status).toBe(409);
      expect(late.data.notice).toMatchObject({
        title: "Payment Failed",
        description: "Your reservation ran out and the items went back on sale. Process the order again to reserve them.",
      });
    } finally {
      ctx.clock.advance(-(ctx.config.holdMinutes + 1) * 60_000);
    }
    expect((await success("?session_id=cs_test_unknown")).data).toEqual({ state: "missing" });
  });
});

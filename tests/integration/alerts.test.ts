import { http, HttpResponse } from "msw";
import { beforeEach, describe, expect, it } from "vitest";
import { alertFromPrimary } from "#server/boot";
import { payLocalIntent } from "#server/integrations/payments/local";
import { ALERT_KINDS, ALERT_TAG, ALERT_WINDOW_MS, flushAlertDigests, raiseAlert, type AlertKind } from "#server/services/alerts/alerts";
import { alertRecipients, setAlertRecipients } from "#server/services/alerts/alert-recipients";
import { Burst } from "#server/services/alerts/burst";
import { checkFulfilmentLag, FULFILMENT_BOUND_MS } from "#server/services/alerts/fulfilment-lag";
import { processOrder } from "#server/services/checkout/checkout";
import { SIGNATURE_BURST, verifiedStripeEvent } from "#server/services/checkout/payment-events";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { confirmStrandedPayments } from "#server/services/checkout/stranded-payments";
import { fulfilDueOrders, fulfilOrder } from "#server/services/fulfilment/fulfilment";
import { SHIPPO_TEST_ADDRESSES } from "../mocks/shippo";
import { POSTMARK_API } from "../mocks/postmark";
import { mockServer } from "../mocks/server";
import { createTestContext, twoWorkers, type TestContext } from "../setup/context";
import { addProduct } from "./store-helpers";

// Alerts by e-mail (issue 27): each kind at most once per 15 minutes on every worker together,
// the rest counted into one digest; each kind raised by the store's own code where it happens.
const { workerA: ctx, workerB } = twoWorkers({ ADMIN_EMAIL: "ops@legacy.test" });

const alertMails = (on: TestContext = ctx) =>
  on.db.selectFrom("mailMessages").select(["toAddress", "subject", "textBody"]).where("tag", "=", ALERT_TAG).orderBy("id").execute();
const subjectOf = (kind: AlertKind) => `[Legacy] ${ALERT_KINDS[kind]}`;
const mailsOfKind = async (kind: AlertKind, on: TestContext = ctx) =>
  (await alertMails(on)).filter((mail) => mail.subject === subjectOf(kind));

const customer = {
  email: "alert-buyer@example.com",
  name: "Al Ert",
  phone: "",
  street: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
};
let sessions = 0;
async function placeOrder(on: TestContext, productId: number, address: Partial<typeof customer> = {}) {
  const sessionId = `alert-session-${++sessions}`;
  await on.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
  return processOrder(on, {
    sessionId,
    customer: { ...customer, ...address },
    shippingMethod: on.config.shippo.apiKey ? "usps-usps_ground_advantage" : "usps-ground_saver",
  });
}

describe("one e-mail per kind per window, across workers", () => {
  it("sends each kind once, holds the rest of the window (from either worker), then sends one digest counting them", async () => {
    workerB.clock.set(ctx.clock.now());
    for (const kind of Object.keys(ALERT_KINDS) as AlertKind[]) {
      expect(await raiseAlert(ctx, kind, `${kind}: first`), kind).toBe("sent");
      expect(await raiseAlert(workerB, kind, `${kind}: second`), kind).toBe("held");
      expect(await raiseAlert(ctx, kind, `${kind}: third`), kind).toBe("held");
    }
    const first = await alertMails();
    expect(first.map((mail) => mail.subject)).toEqual(Object.values(ALERT_KINDS).map((title) => `[Legacy] ${title}`));
    expect(first.every((mail) => mail.toAddress === "ops@legacy.test")).toBe(true);
    expect(first[0]!.textBody).toContain("label-failed: first");

    // Still inside the window: no digest yet.
    ctx.clock.advance(ALERT_WINDOW_MS - 1_000);
    expect(await flushAlertDigests(ctx)).toBe(0);
    ctx.clock.advance(1_000);
    expect(await flushAlertDigests(ctx)).toBe(Object.keys(ALERT_KINDS).length);
    expect(await flushAlertDigests(workerB)).toBe(0);
    const digests = (await alertMails()).slice(first.length);
    expect(digests.map((mail) => mail.subject).sort()).toEqual(first.map((mail) => mail.subject).sort());
    const labels = digests.find((mail) => mail.subject === subjectOf("label-failed"))!;
    expect(labels.textBody).toContain("2 more since");
    expect(labels.textBody).toContain("the last: label-failed: third");

    // The digest opened a new window: the next alert of a kind waits for it.
    expect(await raiseAlert(ctx, "sold-out", "again")).toBe("held");
    ctx.clock.advance(ALERT_WINDOW_MS);
    workerB.clock.set(ctx.clock.now());
    // Two workers at once after the window: one e-mail.
    const outcomes = await Promise.all([raiseAlert(ctx, "label-failed", "a"), raiseAlert(workerB, "label-failed", "b")]);
    expect(outcomes.sort()).toEqual(["held", "sent"]);
  });

  it("mails the App Settings list of recipients, and refuses a list with something not an address", async () => {
    ctx.clock.advance(ALERT_WINDOW_MS);
    expect(await alertRecipients(ctx)).toEqual(["ops@legacy.test"]);
    expect(await setAlertRecipients(ctx, "a@legacy.test, b@legacy.test;a@legacy.test")).toEqual(["a@legacy.test", "b@legacy.test"]);
    await expect(setAlertRecipients(ctx, "a@legacy.test, not an address")).rejects.toThrow(
      /Alert recipients are up to 10 e-mail addresses/,
    );
    expect(await alertRecipients(ctx)).toEqual(["a@legacy.test", "b@legacy.test"]);
    const before = (await alertMails()).length;
    expect(await raiseAlert(ctx, "outbox-failing", "recipients")).toBe("sent");
    expect((await alertMails()).slice(before).map((mail) => mail.toAddress)).toEqual(["a@legacy.test", "b@legacy.test"]);
    expect(await setAlertRecipients(ctx, "")).toEqual(["ops@legacy.test"]);
  });
});

describe("each kind, raised where it happens, once in its window", () => {
  // Each kind's last window (the tests above) has closed.
  beforeEach(() => ctx.clock.advance(2 * ALERT_WINDOW_MS));

  it("sold out: the checkout that holds a product's last unit", async () => {
    const before = (await mailsOfKind("sold-out")).length;
    const productId = await addProduct(ctx, { name: "Last Tee", inventory: 2 });
    await placeOrder(ctx, productId);
    expect(await mailsOfKind("sold-out")).toHaveLength(before);
    await placeOrder(ctx, productId);
    const soldOut = (await mailsOfKind("sold-out")).slice(before);
    expect(soldOut).toHaveLength(1);
    expect(soldOut[0]!.textBody).toMatch(/^Last Tee sold out: order \d+ holds its last unit/);
    // Another product sold out inside the window: held, not mailed.
    const other = await addProduct(ctx, { name: "Other Tee", inventory: 1 });
    await placeOrder(ctx, other);
    expect((await mailsOfKind("sold-out")).slice(before)).toHaveLength(1);
  });

  it("payment stranded: the sweeper confirms a payment nobody confirmed", async () => {
    const productId = await addProduct(ctx, { name: "Stranded Tee", inventory: 10 });
    const before = (await mailsOfKind("payment-stranded")).length;
    for (let i = 0; i < 2; i++) {
      const order = await placeOrder(ctx, productId);
      await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
    }
    ctx.clock.advance((ctx.config.holdMinutes + 1) * 60_000);
    expect(await confirmStrandedPayments(ctx)).toBe(2);
    const mails = (await mailsOfKind("payment-stranded")).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toMatch(/^Order \d+: its payment succeeded but was never confirmed/);
  });

  it("fulfilment behind: a paid order untried past the bound, checked by the sweeper", async () => {
    await fulfilDueOrders(ctx);
    const productId = await addProduct(ctx, { name: "Late Tee", inventory: 10 });
    const order = await placeOrder(ctx, productId);
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
    await confirmPayment(ctx, order.paymentIntentId);
    const before = (await mailsOfKind("fulfilment-behind")).length;
    ctx.clock.advance(FULFILMENT_BOUND_MS - 1_000);
    expect(await checkFulfilmentLag(ctx)).toBeNull();
    ctx.clock.advance(2_000);
    expect(await checkFulfilmentLag(ctx)).toBe(FULFILMENT_BOUND_MS + 1_000);
    expect(await checkFulfilmentLag(ctx)).not.toBeNull();
    const mails = (await mailsOfKind("fulfilment-behind")).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toMatch(/^1 paid order\(s\) have waited more than 60 s/);
    await fulfilOrder(ctx, order.orderSummary.orderId);
    expect(await checkFulfilmentLag(ctx)).toBeNull();
  });

  it("webhook signatures: a burst of bad signatures, not one", async () => {
    const stripeCtx = {
      ...ctx,
      config: {
        ...ctx.config,
        payments: { mode: "stripe" as const, secretKey: "sk_test_a", publishableKey: "pk_test_a", webhookSecret: "whsec_alerts" },
      },
    };
    const before = (await mailsOfKind("webhook-signatures")).length;
    const forged = () => expect(() => verifiedStripeEvent(stripeCtx, "{}", "t=1,v1=forged")).toThrow("Invalid signature.");
    for (let i = 1; i < SIGNATURE_BURST; i++) forged();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await mailsOfKind("webhook-signatures")).toHaveLength(before);
    for (let i = 0; i < 3 * SIGNATURE_BURST; i++) forged();
    await expect.poll(async () => (await mailsOfKind("webhook-signatures")).length).toBe(before + 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const mails = (await mailsOfKind("webhook-signatures")).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toMatch(/^5 Stripe webhook deliveries in 60 s had a signature that does not check out/);
  });

  it("worker restarts: the primary's alert, through a database it opens for it", async () => {
    const primary = new Burst(3, 5 * 60_000);
    expect([primary.note(0), primary.note(1_000), primary.note(2_000)]).toEqual([false, false, true]);
    const before = (await mailsOfKind("worker-restarts")).length;
    await alertFromPrimary(ctx.config, "worker-restarts", "3 workers stopped within 10 s of their start");
    await alertFromPrimary(ctx.config, "worker-restarts", "3 workers stopped within 10 s of their start");
    const mails = (await mailsOfKind("worker-restarts")).slice(before);
    expect(mails.map((mail) => mail.textBody?.split("\n")[0])).toEqual(["3 workers stopped within 10 s of their start"]);
  });
});

describe("label purchase failed and outbox failing, from the fulfilment of a paid order", () => {
  const vendors = createTestContext({ SHIPPO_API_KEY: "shippo_test_0123456789abcdef", ADMIN_EMAIL: "ops@legacy.test" });

  it("mails one label alert for two failed labels", async () => {
    const productId = await addProduct(vendors, { name: "Label Tee", inventory: 10, weight: 1, length: 10, width: 8, height: 2 });
    for (let i = 0; i < 2; i++) {
      const order = await placeOrder(vendors, productId, { street: SHIPPO_TEST_ADDRESSES.labelErrorStreet });
      await payLocalIntent(vendors, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
      await confirmPayment(vendors, order.paymentIntentId);
      await fulfilOrder(vendors, order.orderSummary.orderId);
    }
    const mails = await mailsOfKind("label-failed", vendors);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toMatch(/^Order \d+: the shipping label could not be bought \(/);
  });

  const mailDown = createTestContext({
    POSTMARK_SERVER_TOKEN: "pm-token",
    POSTMARK_FROM: "store@legacy.test",
    ADMIN_EMAIL: "ops@legacy.test",
  });

  it("mails one outbox alert for two confirmation e-mails Postmark refused (the alert itself is tried too)", async () => {
    mockServer.use(
      http.post(`${POSTMARK_API}/email`, () => HttpResponse.json({ ErrorCode: 100, Message: "Service unavailable" }, { status: 503 })),
    );
    const productId = await addProduct(mailDown, { name: "Mail Tee", inventory: 10 });
    for (let i = 0; i < 2; i++) {
      const order = await placeOrder(mailDown, productId);
      await payLocalIntent(mailDown, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
      await confirmPayment(mailDown, order.paymentIntentId);
      await fulfilOrder(mailDown, order.orderSummary.orderId);
    }
    const mails = await mailsOfKind("outbox-failing", mailDown);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toMatch(/^Order \d+: the confirmation e-mail could not be sent \(/);
  });
});

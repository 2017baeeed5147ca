// A refund cut off between the provider and the database: the order was claimed ("pending"), the
// process died before the refund was recorded. The crash is simulated at that exact point: the
// first try records its refund for an admin id no user has, so the refunds row's foreign key fails
// the write that follows the provider's answer, as a process killed at that instant never makes it.
// A later try past STALE_REFUND_CLAIM_MS takes the claim over and records the provider's refund.
import { http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { paymentsFor } from "#server/integrations/payments";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { processRefund, refundEligibility, STALE_REFUND_CLAIM_MS } from "#server/services/orders/refunds";
import { ensureAdmin } from "#server/services/accounts/users";
import { mockServer } from "../mocks/server";
import { STRIPE_API, stripeState } from "../mocks/stripe";
import { createTestContext, type TestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();
const stripeCtx = createTestContext({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" });
const admin = new CookieJar();
const customer = {
  email: "stale@example.com",
  name: "Stale Sam",
  phone: "",
  street: "9 B St",
  city: "Portland",
  state: "OR",
  zipCode: "97201",
  country: "US",
};
const NO_SUCH_ADMIN = 999_999;
const IN_PROGRESS = "A refund for this order is already being processed.";
let adminId: number;
const productIds = new Map<TestContext, number>();

async function placeOrder(c: TestContext, sessionId: string) {
  await c.db
    .insertInto("cartItems")
    .values({ sessionId, productId: productIds.get(c)!, quantity: 2 })
    .execute();
  return processOrder(c, { sessionId, customer, shippingMethod: "usps-ground_saver" });
}

/** A paid order: the local test card, or (Stripe) the buyer's card succeeding at mocked Stripe. */
async function paidOrder(c: TestContext, sessionId: string) {
  const order = await placeOrder(c, sessionId);
  if (c === stripeCtx) stripeState.succeed(order.paymentIntentId);
  else await payLocalIntent(c, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
  await confirmPayment(c, order.paymentIntentId);
  const { totalCents, shippingCents } = await c.db
    .selectFrom("orders")
    .select(["totalCents", "shippingCents"])
    .where("id", "=", order.orderSummary.orderId)
    .executeTakeFirstOrThrow();
  return { id: order.orderSummary.orderId, paymentIntentId: order.paymentIntentId, totalCents, shippingCents };
}

/** The first try: the provider refunds, then the process dies before the refund is recorded. */
async function refundCutOffAfterTheProvider(c: TestContext, orderId: number) {
  await expect(processRefund(c, orderId, { reason: "First try", refundShipping: false }, NO_SUCH_ADMIN)).rejects.toThrow();
  expect(await orderRow(c, orderId)).toMatchObject({ refundStatus: "pending", refundAmountCents: 0 });
  expect(await refundRows(c, orderId)).toEqual([]);
}

/** The first try died after its claim, before the provider was asked: the row as it left it. */
async function refundCutOffBeforeTheProvider(c: TestContext, orderId: number) {
  await c.db
    .updateTable("orders")
    .set({ refundStatus: "pending", updatedAt: c.clock.now().toISOString() })
    .where("id", "=", orderId)
    .execute();
}

const orderRow = (c: TestContext, id: number) =>
  c.db.selectFrom("orders").select(["refundStatus", "refundAmountCents", "status"]).where("id", "=", id).executeTakeFirstOrThrow();
const refundRows = (c: TestContext, orderId: number) => c.db.selectFrom("refunds").selectAll().where("orderId", "=", orderId).execute();
const localRefunds = (paymentIntentId: string) =>
  ctx.db.selectFrom("localRefunds").selectAll().where("paymentIntentId", "=", paymentIntentId).execute();
const stripeRefunds = (paymentIntentId: string) => [...stripeState.refunds.values()].filter((r) => r.payment_intent === paymentIntentId);

beforeAll(async () => {
  useAppContextForTests(ctx);
  for (const c of [ctx, stripeCtx]) {
    const { id } = await c.db
      .insertInto("products")
      .values({ name: "Coat", description: "A coat for the stale refund tests", priceCents: 15000, inventory: 50 })
      .returning("id")
      .executeTakeFirstOrThrow();
    productIds.set(c, id);
  }
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "b@example.com" });
  adminId = (await ctx.db.selectFrom("users").select("id").where("username", "=", "boss").executeTakeFirstOrThrow()).id;
  await ensureAdmin(stripeCtx, { username: "boss", password: "boss-password", email: "b@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
});
afterAll(() => stripeState.reset());

describe("a refund cut off by a crash", () => {
  it("is finished by a later try: the provider's one refund recorded once, for the first try's amount", async () => {
    const order = await paidOrder(ctx, "stale-1");
    const withoutShipping = order.totalCents - order.shippingCents;
    await refundCutOffAfterTheProvider(ctx, order.id);
    const [made] = await localRefunds(order.paymentIntentId);
    expect(made).toMatchObject({ idempotencyKey: `refund-order-${order.id}`, amountCents: withoutShipping });

    ctx.clock.advance(STALE_REFUND_CLAIM_MS);
    expect(await refundEligibility(ctx, order.id)).toMatchObject({
      eligible: true,
      eligibilityInfo: {
        message:
          "A refund for this order was started but never finished. Process it again to finish it; the customer is not refunded twice.",
      },
      order: { refundStatus: "pending", refundAmount: 0 },
      refundable: { withShipping: order.totalCents / 100, withoutShipping: withoutShipping / 100 },
    });

    // Asked with shipping this time: the refund the first try made (without) is what is recorded.
    const { refund } = await processRefund(ctx, order.id, { reason: "Second try", refundShipping: true }, adminId);
    expect(refund).toMatchObject({ refundId: made!.id, amount: withoutShipping / 100 });
    expect(await orderRow(ctx, order.id)).toMatchObject({ refundStatus: "completed", refundAmountCents: withoutShipping });
    expect(await refundRows(ctx, order.id)).toEqual([
      expect.objectContaining({ refundId: made!.id, amountCents: withoutShipping, shippingRefunded: 0, adminUserId: adminId }),
    ]);
    expect(await localRefunds(order.paymentIntentId)).toHaveLength(1);
    const intent = await ctx.db
      .selectFrom("localPaymentIntents")
      .select("refundedCents")
      .where("id", "=", order.paymentIntentId)
      .executeTakeFirstOrThrow();
    expect(intent.refundedCents).toBe(withoutShipping);
    await expect(processRefund(ctx, order.id, { reason: "Third", refundShipping: false }, adminId)).rejects.toThrow(
      "This order has already been refunded.",
    );
  });

  it("through REST: 409 'in progress' while the claim is fresh, finished (201) once it is stale", async () => {
    const order = await paidOrder(ctx, "stale-2");
    await refundCutOffAfterTheProvider(ctx, order.id);
    const refund = () =>
      api("POST", `/api/admin/orders/${order.id}/refund`, { body: { reason: "Again", refundShipping: false }, jar: admin });
    const eligibility = async () => (await api("GET", `/api/admin/orders/${order.id}/refund-eligibility`, { jar: admin })).json();

    ctx.clock.advance(STALE_REFUND_CLAIM_MS - 1);
    const fresh = await refund();
    expect(fresh.status).toBe(409);
    expect(await fresh.json()).toEqual({ message: IN_PROGRESS, errors: {} });
    expect(await eligibility()).toMatchObject({ eligible: false, eligibilityInfo: { message: IN_PROGRESS } });
    expect(await orderRow(ctx, order.id)).toMatchObject({ refundStatus: "pending" });

    ctx.clock.advance(1);
    const stale = await refund();
    expect(stale.status).toBe(201);
    expect((await stale.json()).refund).toMatchObject({ amount: (order.totalCents - order.shippingCents) / 100, status: "succeeded" });
    expect(await refundRows(ctx, order.id)).toHaveLength(1);
  });

  it("an order marked shipped meanwhile does not put the takeover off", async () => {
    const order = await paidOrder(ctx, "stale-shipped");
    await refundCutOffAfterTheProvider(ctx, order.id);
    // Five minutes on, the admin marks the order shipped: the order changes, the claim does not.
    ctx.clock.advance(5 * 60_000);
    const shipped = await api("PATCH", `/api/admin/orders/${order.id}/status`, { body: { status: "shipped" }, jar: admin });
    expect(shipped.status).toBe(200);
    expect(await orderRow(ctx, order.id)).toMatchObject({ refundStatus: "pending", status: "shipped" });

    // Ten minutes after the claim, not after the status change.
    ctx.clock.advance(STALE_REFUND_CLAIM_MS - 5 * 60_000);
    const taken = await api("POST", `/api/admin/orders/${order.id}/refund`, {
      body: { reason: "Again", refundShipping: false },
      jar: admin,
    });
    expect(taken.status).toBe(201);
    expect(await orderRow(ctx, order.id)).toMatchObject({
      refundStatus: "completed",
      refundAmountCents: order.totalCents - order.shippingCents,
    });
    expect(await localRefunds(order.paymentIntentId)).toHaveLength(1);
  });

  it("two takeovers at once: one asks the provider and records the refund, the others are refused", async () => {
    const order = await paidOrder(ctx, "stale-3");
    await refundCutOffBeforeTheProvider(ctx, order.id);
    ctx.clock.advance(STALE_REFUND_CLAIM_MS + 60_000);

    const results = await Promise.allSettled(
      [1, 2, 3].map(() => processRefund(ctx, order.id, { reason: "Retry", refundShipping: true }, adminId)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    // "In progress" while the winner holds the claim; on PostgreSQL a loser can also read the order
    // only after the winner recorded the refund, and is told it is refunded: both are right.
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect([IN_PROGRESS, "This order has already been refunded."]).toContain((r as PromiseRejectedResult).reason.message);
    }
    const made = await localRefunds(order.paymentIntentId);
    expect(made).toEqual([expect.objectContaining({ idempotencyKey: `refund-order-${order.id}`, amountCents: order.totalCents })]);
    expect(await refundRows(ctx, order.id)).toEqual([
      expect.objectContaining({ refundId: made[0]!.id, amountCents: order.totalCents, shippingRefunded: 1 }),
    ]);
    expect(await orderRow(ctx, order.id)).toMatchObject({ refundStatus: "completed", refundAmountCents: order.totalCents });
  });

  it("with Stripe: the takeover finds the refund Stripe made by its key and records that one", async () => {
    const order = await paidOrder(stripeCtx, "stale-stripe-1");
    await refundCutOffAfterTheProvider(stripeCtx, order.id);
    const [first] = stripeRefunds(order.paymentIntentId);
    expect(stripeState.seen("POST", "/v1/refunds").filter((r) => r.params.payment_intent === order.paymentIntentId)).toEqual([
      expect.objectContaining({ idempotencyKey: `refund-order-${order.id}` }),
    ]);

    stripeCtx.clock.advance(STALE_REFUND_CLAIM_MS);
    const { refund } = await processRefund(stripeCtx, order.id, { reason: "Second try", refundShipping: false }, adminId);
    expect(refund.refundId).toBe(first!.id);
    expect(stripeRefunds(order.paymentIntentId)).toHaveLength(1);
    expect(await refundRows(stripeCtx, order.id)).toEqual([expect.objectContaining({ refundId: first!.id })]);
    expect(await orderRow(stripeCtx, order.id)).toMatchObject({
      refundStatus: "completed",
      refundAmountCents: order.totalCents - order.shippingCents,
    });
  });

  it("with Stripe: a takeover of a claim that never reached Stripe asks Stripe with the same key", async () => {
    const order = await paidOrder(stripeCtx, "stale-stripe-2");
    await refundCutOffBeforeTheProvider(stripeCtx, order.id);
    stripeCtx.clock.advance(STALE_REFUND_CLAIM_MS);
    const { refund } = await processRefund(stripeCtx, order.id, { reason: "Retry", refundShipping: false }, adminId);

    const asked = stripeState.seen("POST", "/v1/refunds").filter((r) => r.params.payment_intent === order.paymentIntentId);
    expect(asked).toEqual([expect.objectContaining({ idempotencyKey: `refund-order-${order.id}` })]);
    expect(stripeRefunds(order.paymentIntentId)).toEqual([expect.objectContaining({ id: refund.refundId })]);
    expect(await refundRows(stripeCtx, order.id)).toHaveLength(1);
  });

  it("with Stripe: a try whose answer was lost, retried after Stripe forgot its key, records Stripe's refund and makes no second", async () => {
    const order = await paidOrder(stripeCtx, "stale-stripe-4");
    // The first try reached Stripe, which refunded; its answer never came back, so it gave its claim back.
    const lost = await paymentsFor(stripeCtx).refund({
      paymentIntentId: order.paymentIntentId,
      amountCents: order.totalCents - order.shippingCents,
      idempotencyKey: `refund-order-${order.id}`,
    });
    expect(await orderRow(stripeCtx, order.id)).toMatchObject({ refundStatus: "none", refundAmountCents: 0 });
    // More than 24 hours later Stripe no longer knows the key.
    stripeState.idempotent.clear();
    const asked = stripeState.seen("POST", "/v1/refunds").length;

    const { refund } = await processRefund(stripeCtx, order.id, { reason: "Again", refundShipping: false }, adminId);
    expect(refund.refundId).toBe(lost.id);
    expect(stripeState.seen("POST", "/v1/refunds")).toHaveLength(asked);
    expect(stripeRefunds(order.paymentIntentId)).toHaveLength(1);
    expect(await refundRows(stripeCtx, order.id)).toEqual([expect.objectContaining({ refundId: lost.id })]);
    expect(await orderRow(stripeCtx, order.id)).toMatchObject({
      refundStatus: "completed",
      refundAmountCents: order.totalCents - order.shippingCents,
    });
  });

  it("with Stripe: a first try slower than the bound, taken over, records nothing a second time", async () => {
    const order = await paidOrder(stripeCtx, "stale-stripe-3");
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    let reached!: () => void;
    const atStripe = new Promise<void>((resolve) => (reached = resolve));
    // The first try's request waits at Stripe until told; then Stripe's usual handler answers it.
    mockServer.use(
      http.post(
        `${STRIPE_API}/v1/refunds`,
        async () => {
          reached();
          await held;
        },
        { once: true },
      ),
    );
    const first = processRefund(stripeCtx, order.id, { reason: "Slow", refundShipping: false }, adminId);
    await atStripe;

    stripeCtx.clock.advance(STALE_REFUND_CLAIM_MS);
    const { refund } = await processRefund(stripeCtx, order.id, { reason: "Retry", refundShipping: false }, adminId);
    answer();
    await expect(first).rejects.toThrow("This order has already been refunded.");

    expect(stripeRefunds(order.paymentIntentId)).toEqual([expect.objectContaining({ id: refund.refundId })]);
    expect(await refundRows(stripeCtx, order.id)).toEqual([expect.objectContaining({ refundId: refund.refundId, reason: "Retry" })]);
    expect(await orderRow(stripeCtx, order.id)).toMatchObject({
      refundStatus: "completed",
      refundAmountCents: order.totalCents - order.shippingCents,
    });
  });
});

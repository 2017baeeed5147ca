import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "#db/client";
import { migrations } from "#db/migrations";
import { useAppContextForTests } from "#server/boot";
import { paymentsFrom } from "#server/config";
import type { AppContext } from "#server/context";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { getOverview, revenueCents } from "#server/services/reporting/dashboard";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { processRefund } from "#server/services/orders/refunds";
import { ensureAdmin } from "#server/services/accounts/users";
import { stripeState } from "../mocks/stripe";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct } from "./store-helpers";

// One database seen in three modes: the store as it ran in test mode, then with Stripe's live
// keys set, then with Stripe's test keys (which charge no card either: issue 27).
const ctx = createTestContext();
const stripeCtx: AppContext = {
  ...ctx,
  config: { ...ctx.config, payments: paymentsFrom({ STRIPE_SECRET_KEY: "sk_live_x", STRIPE_PUBLISHABLE_KEY: "pk_live_x" }) },
};
const stripeTestCtx: AppContext = {
  ...ctx,
  config: { ...ctx.config, payments: paymentsFrom({ STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x" }) },
};
const admin = new CookieJar();
const customer = {
  email: "tess@example.com",
  name: "Tess Testmode",
  phone: "",
  street: "350 5th Ave",
  city: "New York",
  state: "NY",
  zipCode: "10001",
  country: "US",
};
let productId: number;
let adminId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  adminId = (await ctx.db.selectFrom("users").select("id").where("username", "=", "boss").executeTakeFirstOrThrow()).id;
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  productId = await addProduct(ctx, { name: "Drop Tee", description: "A tee for the test-mode tests", inventory: 50 });
});
afterAll(() => stripeState.reset());

async function placeOrder(on: AppContext, sessionId: string) {
  await on.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
  const order = await processOrder(on, { sessionId, customer, shippingMethod: "usps-ground_saver" });
  return { id: order.orderSummary.orderId, paymentIntentId: order.paymentIntentId, clientSecret: order.clientSecret };
}

/** Checkout in test mode: the public test card on the built-in processor. */
async function paidInTestMode(sessionId: string) {
  const order = await placeOrder(ctx, sessionId);
  await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
  expect((await confirmPayment(ctx, order.paymentIntentId))?.status).toBe("paid");
  return order;
}

/** Checkout with Stripe: the buyer's card succeeds at (mocked) Stripe. */
async function paidWithStripe(sessionId: string) {
  const order = await placeOrder(stripeCtx, sessionId);
  stripeState.succeed(order.paymentIntentId);
  expect((await confirmPayment(stripeCtx, order.paymentIntentId))?.status).toBe("paid");
  return order;
}

const row = (id: number) =>
  ctx.db.selectFrom("orders").select(["isTest", "paidAt", "totalCents"]).where("id", "=", id).executeTakeFirstOrThrow();
const trpcDetail = (id: number) =>
  api("GET", `/api/trpc/admin.orders.detail?input=${encodeURIComponent(JSON.stringify({ id }))}`, { jar: admin });

describe("orders paid in test mode", () => {
  let testOrder: Awaited<ReturnType<typeof paidInTestMode>>;
  let realOrder: Awaited<ReturnType<typeof paidWithStripe>>;

  it("stores an order paid with the test card as a test order, and a Stripe order as a real one", async () => {
    testOrder = await paidInTestMode("test-mode-1");
    realOrder = await paidWithStripe("stripe-mode-1");
    const [test, real] = [await row(testOrder.id), await row(realOrder.id)];
    expect(test.isTest).toBe(1);
    expect(test.paidAt).not.toBeNull();
    expect(real.isTest).toBe(0);
    expect(real.paidAt).not.toBeNull();
  });

  it("leaves test orders out of revenue: only the Stripe order's total counts", async () => {
    const real = await row(realOrder.id);
    expect(await revenueCents(ctx)).toBe(real.totalCents);
    // A second test order changes nothing; an unpaid Stripe checkout neither.
    await paidInTestMode("test-mode-2");
    await placeOrder(stripeCtx, "stripe-unpaid");
    expect(await revenueCents(ctx)).toBe(real.totalCents);
    const overview = await getOverview(ctx);
    expect(overview.revenue).toBe(real.totalCents / 100);
    expect(overview.orders).toBe(4);
  });

  it("takes a refund off revenue", async () => {
    const before = await revenueCents(ctx);
    const { refund } = await processRefund(stripeCtx, realOrder.id, { reason: "Wrong size", refundShipping: false }, adminId);
    expect(refund.amount).toBeGreaterThan(0);
    expect(await revenueCents(ctx)).toBe(before - Math.round(refund.amount * 100));
  });

  it("marks each order in the admin's REST list with test: true or false", async () => {
    const response = await api("GET", "/api/admin/orders", { jar: admin });
    expect(response.status).toBe(200);
    const { orders } = (await response.json()) as { orders: { id: number; test: boolean }[] };
    expect(orders.find((o) => o.id === testOrder.id)?.test).toBe(true);
    expect(orders.find((o) => o.id === realOrder.id)?.test).toBe(false);
  });

  it("marks the order in the tRPC list and detail (the Orders tab's widgets)", async () => {
    const list = await api("GET", "/api/trpc/admin.orders.list", { jar: admin });
    const listed = (await list.json()).result.data.orders as { id: number; test: boolean }[];
    expect(listed.find((o) => o.id === testOrder.id)?.test).toBe(true);
    expect(listed.find((o) => o.id === realOrder.id)?.test).toBe(false);

    const test = await trpcDetail(testOrder.id);
    expect(test.status).toBe(200);
    // The detail also names the shipping method as the checkout offered it, not by its key (issue 28).
    expect((await test.json()).result.data).toMatchObject({
      id: testOrder.id,
      test: true,
      shippingMethod: "usps-ground_saver",
      shippingMethodLabel: "USPS Ground Advantage",
    });
    expect((await (await trpcDetail(realOrder.id)).json()).result.data).toMatchObject({ id: realOrder.id, test: false });
  });

  it("stores an order paid through Stripe with test keys as a test order, left out of revenue", async () => {
    const before = await revenueCents(ctx);
    const order = await placeOrder(stripeTestCtx, "stripe-test-keys-1");
    stripeState.succeed(order.paymentIntentId);
    expect((await confirmPayment(stripeTestCtx, order.paymentIntentId))?.status).toBe("paid");
    expect(await row(order.id)).toMatchObject({ isTest: 1, paidAt: expect.any(String) });
    expect(await revenueCents(ctx)).toBe(before);
    const { orders } = (await (await api("GET", "/api/admin/orders", { jar: admin })).json()) as {
      orders: { id: number; test: boolean }[];
    };
    expect(orders.find((o) => o.id === order.id)?.test).toBe(true);
  });
});

describe("the migration that adds the test flag", () => {
  it("marks the orders the test processor took before it, and only those", async () => {
    const db = openDatabase(":memory:");
    try {
      await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo("0007_subscriber_list_index");
      const order = {
        customerEmail: "old@example.com",
        customerName: "Old Order",
        shippingAddress: "{}",
        subtotalCents: 1000,
        totalCents: 1000,
      };
      await db
        .insertInto("orders")
        .values([{ ...order, paymentIntentId: "pi_local_old" }, { ...order, paymentIntentId: "pi_3Stripe" }, order])
        .execute();
      await db
        .insertInto("localPaymentIntents")
        .values({ id: "pi_local_old", clientSecret: "pi_local_old_secret", amountCents: 1000, status: "succeeded" })
        .execute();

      expect(await migrateToLatest(db)).toContain("0008_test_orders");
      const rows = await db.selectFrom("orders").select(["paymentIntentId", "isTest"]).orderBy("id").execute();
      expect(rows).toEqual([
        { paymentIntentId: "pi_local_old", isTest: 1 },
        { paymentIntentId: "pi_3Stripe", isTest: 0 },
        { paymentIntentId: null, isTest: 0 },
      ]);
    } finally {
      await db.destroy();
    }
  });
});

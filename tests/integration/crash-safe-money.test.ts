// Money and labels survive a crash between the provider and the database (issue 21, decision
// 0038). The crash is a power cut simulated in the database: a trigger fails the write that
// follows the provider's answer, as a process killed at that instant would never make it. The
// store is then "restarted" (the trigger gone) and its sweeper and fulfilment job run again.
import fs from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { processOrder } from "#server/services/checkout/checkout";
import { fulfilDueOrders } from "#server/services/fulfilment/fulfilment";
import { releaseExpiredHolds } from "#server/services/cart/holds";
import { labelsDir } from "#server/integrations/shipping/local";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { confirmStrandedPayments } from "#server/services/checkout/stranded-payments";
import { shippoState } from "../mocks/shippo";
import { createTestContext, type TestContext } from "../setup/context";
import { powerCut } from "../setup/power-cut";
import { addProduct, runFulfilmentJob } from "./store-helpers";

const ctx = createTestContext();
const shippoCtx = createTestContext({ SHIPPO_API_KEY: "shippo_test_0123456789abcdef" });

let n = 0;
const customer = (overrides: Record<string, string> = {}) => ({
  email: `crash${++n}@example.com`,
  name: "Pat Crash",
  phone: "",
  street: `${n} Main Street`,
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
  ...overrides,
});

/** A payment the provider took after the order's hold ran out (and, unless told, was released). */
async function latePayment(productId: number, who: ReturnType<typeof customer>, { released = true } = {}) {
  const sessionId = `crash-session-${++n}`;
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
  const placed = await processOrder(ctx, { sessionId, customer: who, shippingMethod: "usps-ground_saver" });
  ctx.clock.advance((ctx.config.holdMinutes + 1) * 60_000);
  if (released) await releaseExpiredHolds(ctx);
  await ctx.db.updateTable("localPaymentIntents").set({ status: "succeeded" }).where("id", "=", placed.paymentIntentId).execute();
  return {
    orderId: placed.orderSummary.orderId,
    paymentIntentId: placed.paymentIntentId,
    totalCents: Math.round(placed.orderSummary.total * 100),
  };
}

/** A paid order, placed and paid in time. */
async function paidOrder(c: TestContext, productId: number, who = customer()) {
  const sessionId = `crash-session-${++n}`;
  await c.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
  const shippingMethod = c === shippoCtx ? "usps-usps_ground_advantage" : "usps-ground_saver";
  const placed = await processOrder(c, { sessionId, customer: who, shippingMethod });
  await c.db.updateTable("localPaymentIntents").set({ status: "succeeded" }).where("id", "=", placed.paymentIntentId).execute();
  expect((await confirmPayment(c, placed.paymentIntentId)).status).toBe("paid");
  return placed.orderSummary.orderId;
}

const inventoryOf = async (id: number) =>
  (await ctx.db.selectFrom("products").select("inventory").where("id", "=", id).executeTakeFirstOrThrow()).inventory;
const orderRow = (c: TestContext, id: number) =>
  c.db
    .selectFrom("orders")
    .select(["status", "paidAt", "refundStatus", "refundAmountCents", "totalCents"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("a late payment's refund", () => {
  it("cut off after the provider refunded: the sweeper finishes it, one refund, and the goods never ship", async () => {
    const productId = await addProduct(ctx, { name: "Last Crash Tee", inventory: 1 });
    const late = await latePayment(productId, customer());
    await paidOrder(ctx, productId); // someone else bought the last unit meanwhile
    expect(await inventoryOf(productId)).toBe(0);

    // The provider refunds; the process dies before the store writes anything about it.
    const restart = await powerCut(
      ctx,
      "refunds",
      `(SELECT i.refunded_cents FROM orders o JOIN local_payment_intents i ON i.id = o.payment_intent_id WHERE o.id = NEW.order_id) > 0`,
    );
    await expect(confirmPayment(ctx, late.paymentIntentId)).rejects.toThrow("power cut");
    await restart();
    const intent = () =>
      ctx.db.selectFrom("localPaymentIntents").select("refundedCents").where("id", "=", late.paymentIntentId).executeTakeFirstOrThrow();
    expect((await intent()).refundedCents).toBe(late.totalCents);

    // A unit comes back (a return, a restock) before the sweeper runs: it must stay on the shelf.
    await ctx.db.updateTable("products").set({ inventory: 1 }).where("id", "=", productId).execute();
    await confirmStrandedPayments(ctx);
    await runFulfilmentJob(ctx);

    expect(await orderRow(ctx, late.orderId)).toMatchObject({
      status: "cancelled",
      refundStatus: "completed",
      refundAmountCents: late.totalCents,
    });
    expect(await inventoryOf(productId)).toBe(1);
    expect((await intent()).refundedCents).toBe(late.totalCents);
    const atProvider = await ctx.db.selectFrom("localRefunds").select("id").where("paymentIntentId", "=", late.paymentIntentId).execute();
    expect(atProvider).toHaveLength(1);
    const recorded = await ctx.db
      .selectFrom("refunds")
      .select(["refundId", "status", "reason"])
      .where("orderId", "=", late.orderId)
      .execute();
    expect(recorded).toEqual([{ refundId: atProvider[0]!.id, status: "succeeded", reason: "Sold out after the reservation expired" }]);
    expect(await ctx.db.selectFrom("shippingLabels").select("id").where("orderId", "=", late.orderId).execute()).toEqual([]);
    // Asked again (the buyer's success page, a webhook): the same answer, nothing more at the provider.
    expect(await confirmPayment(ctx, late.paymentIntentId)).toMatchObject({
      status: "cancelled",
      message: "This order was cancelled and your payment has been refunded in full.",
    });
    expect(await ctx.db.selectFrom("localRefunds").select("id").where("paymentIntentId", "=", late.paymentIntentId).execute()).toHaveLength(
      1,
    );
  });

  it("two confirmations at once refund once", async () => {
    const productId = await addProduct(ctx, { name: "Twice Crash Tee", inventory: 1 });
    const late = await latePayment(productId, customer());
    await paidOrder(ctx, productId);
    const answers = await Promise.all([confirmPayment(ctx, late.paymentIntentId), confirmPayment(ctx, late.paymentIntentId)]);
    expect(answers.map((a) => a.status)).toEqual(["cancelled", "cancelled"]);
    expect(await ctx.db.selectFrom("localRefunds").select("id").where("paymentIntentId", "=", late.paymentIntentId).execute()).toHaveLength(
      1,
    );
    expect(await ctx.db.selectFrom("refunds").select("id").where("orderId", "=", late.orderId).execute()).toHaveLength(1);
  });

  it("a payment already refunded at the provider never becomes a paid order", async () => {
    const productId = await addProduct(ctx, { name: "Dashboard Refund Tee", inventory: 5 });
    const sessionId = `crash-session-${++n}`;
    await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
    const placed = await processOrder(ctx, { sessionId, customer: customer(), shippingMethod: "usps-ground_saver" });
    const totalCents = Math.round(placed.orderSummary.total * 100);
    // Paid, then refunded in full from the provider's dashboard before the store heard of it.
    await ctx.db
      .updateTable("localPaymentIntents")
      .set({ status: "succeeded", refundedCents: totalCents })
      .where("id", "=", placed.paymentIntentId)
      .execute();
    expect(await confirmPayment(ctx, placed.paymentIntentId)).toMatchObject({ status: "cancelled" });
    expect(await orderRow(ctx, placed.orderSummary.orderId)).toMatchObject({ status: "cancelled", refundStatus: "completed" });
    expect(await inventoryOf(productId)).toBe(5);
    await runFulfilmentJob(ctx);
    expect(await ctx.db.selectFrom("shippingLabels").select("id").where("orderId", "=", placed.orderSummary.orderId).execute()).toEqual([]);
  });
});

describe("a late payment and the per-customer limit", () => {
  it("is refunded when the customer bought the limit elsewhere while the expired hold was not yet released", async () => {
    const productId = await addProduct(ctx, { name: "Unreleased Jacket", inventory: 10, maxPerCustomer: 1 });
    const who = customer();
    const late = await latePayment(productId, who, { released: false });
    // The sweeper has not run: the expired hold still holds its unit, but no longer counts.
    await paidOrder(ctx, productId, customer({ email: who.email, street: "77 Other Road" }));
    expect(await inventoryOf(productId)).toBe(8);

    expect(await confirmPayment(ctx, late.paymentIntentId)).toMatchObject({
      status: "cancelled",
      message:
        "Your reservation ran out and you have ordered this item again since. Limit 1 per customer for Unreleased Jacket. Your payment has been refunded in full.",
    });
    expect(await orderRow(ctx, late.orderId)).toMatchObject({ status: "cancelled", refundStatus: "completed" });
    // Its unit goes back on the shelf: one paid order for this customer, one unit sold.
    expect(await inventoryOf(productId)).toBe(9);
    const paid = await ctx.db
      .selectFrom("orders")
      .select("id")
      .where("customerKey", "=", who.email)
      .where("status", "!=", "cancelled")
      .where("paidAt", "is not", null)
      .execute();
    expect(paid).toHaveLength(1);
  });
});

describe("a label purchase", () => {
  beforeEach(() => shippoState.reset());

  // Any write recording the label's outcome fails: the process died right after buying.
  const outcomeWrites = `NEW.status IN ('created', 'failed')`;

  it("cut off after the local provider made the label: the next run finds that label, and buys no second", async () => {
    await runFulfilmentJob(ctx); // the earlier tests' orders are done with
    const productId = await addProduct(ctx, { name: "Label Crash Tee", inventory: 5 });
    const orderId = await paidOrder(ctx, productId);
    const restart = await powerCut(ctx, "shipping_labels", outcomeWrites);
    await expect(fulfilDueOrders(ctx)).rejects.toThrow("power cut");
    await restart();
    const files = () => fs.readdirSync(labelsDir(ctx)).filter((f) => f.startsWith(`${orderId}-`) && f.endsWith(".pdf"));
    expect(files()).toHaveLength(1);

    await runFulfilmentJob(ctx);
    expect(files()).toHaveLength(1);
    const labels = await ctx.db.selectFrom("shippingLabels").select(["status", "labelUrl"]).where("orderId", "=", orderId).execute();
    expect(labels).toEqual([{ status: "created", labelUrl: `/api/admin/labels/${files()[0]}` }]);
  });

  it("cut off after Shippo sold the label: the next run finds the transaction by its key, and buys no second", async () => {
    const productId = await addProduct(shippoCtx, { name: "Shippo Crash Tee", inventory: 5 });
    const orderId = await paidOrder(shippoCtx, productId);
    const restart = await powerCut(shippoCtx, "shipping_labels", outcomeWrites);
    await expect(fulfilDueOrders(shippoCtx)).rejects.toThrow("power cut");
    await restart();
    expect(shippoState.transactionRequests()).toHaveLength(1);
    const [bought] = [...shippoState.transactions.values()];
    expect(bought!.metadata).toMatch(new RegExp(`^Order ${orderId} [0-9a-f-]{36}$`));

    await runFulfilmentJob(shippoCtx);
    expect(shippoState.transactionRequests()).toHaveLength(1);
    const labels = await shippoCtx.db
      .selectFrom("shippingLabels")
      .select(["status", "trackingNumber", "labelUrl", "providerRef"])
      .where("orderId", "=", orderId)
      .execute();
    expect(labels).toEqual([
      { status: "created", trackingNumber: bought!.tracking_number, labelUrl: bought!.label_url, providerRef: bought!.object_id },
    ]);
  });
});

describe("the database going away mid-fulfilment", () => {
  // node-postgres's words when PostgreSQL restarts under a query (db/connection-lost.ts).
  const gone = "Connection terminated unexpectedly";

  it("is no try the provider failed: the order stays due at once, and the next pass fulfils it", async () => {
    await runFulfilmentJob(ctx);
    const productId = await addProduct(ctx, { name: "Restart Tee", inventory: 5 });
    const orderId = await paidOrder(ctx, productId);
    const restart = await powerCut(ctx, "mail_messages", "1 = 1", gone);
    await expect(fulfilDueOrders(ctx)).rejects.toThrow(gone);
    await restart();
    const fulfilment = () =>
      ctx.db
        .selectFrom("orders")
        .select(["fulfilAttempts", "fulfilNextAt", "fulfilledAt"])
        .where("id", "=", orderId)
        .executeTakeFirstOrThrow();
    expect(await fulfilment()).toEqual({ fulfilAttempts: 0, fulfilNextAt: null, fulfilledAt: null });

    // No clock moves: the order is due now, not after a provider's back-off.
    await runFulfilmentJob(ctx);
    expect(await fulfilment()).toMatchObject({ fulfilAttempts: 1, fulfilNextAt: null });
    expect((await fulfilment()).fulfilledAt).not.toBeNull();
  });

  it("leaves no order behind a claim whose release was lost: the job that held it takes it again", async () => {
    await runFulfilmentJob(ctx);
    const productId = await addProduct(ctx, { name: "Lost Release Tee", inventory: 5 });
    const orderId = await paidOrder(ctx, productId);
    // The job's claim was written, then the database went away before its release.
    const expiresAt = new Date(ctx.clock.now().getTime() + 10 * 60_000).toISOString();
    await ctx.db
      .insertInto("leases")
      .values({ name: `fulfil-order-${orderId}`, holder: "job-a", expiresAt })
      .execute();

    expect(await fulfilDueOrders(ctx, { holder: "job-b" })).toBe(0);
    expect(await fulfilDueOrders(ctx, { holder: "job-a" })).toBe(1);
    const order = await ctx.db.selectFrom("orders").select("fulfilledAt").where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(order.fulfilledAt).not.toBeNull();
    expect(await ctx.db.selectFrom("leases").select("name").where("name", "=", `fulfil-order-${orderId}`).execute()).toEqual([]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { releaseExpiredHolds } from "#server/services/cart/holds";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { sweep } from "#server/services/jobs/sweeper";
import { createTestContext } from "../setup/context";
import { runFulfilmentJob } from "./store-helpers";

const ctx = createTestContext();
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
let dropId: number;
let teeId: number;

async function bag(sessionId: string, productId: number, quantity = 1) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity }).execute();
}

beforeAll(async () => {
  dropId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Drop Hoodie", description: "Limited run hoodie", priceCents: 12000, inventory: 5 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  teeId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Tee", description: "Discounted tee here", priceCents: 4999, discountPercent: 15, inventory: 100 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});

describe("pricing", () => {
  it("prices from the database: discount rounded once per unit, shipping re-quoted, state tax", async () => {
    await bag("price-1", teeId, 3);
    const { orderSummary } = await processOrder(ctx, { sessionId: "price-1", customer, shippingMethod: "usps-ground_saver" });
    // 49.99 × 0.85 = 42.4915 → 42.49 a unit, × 3 = 127.47; 3 × 1 lb → 5.95 + 2 × 0.75 = 7.45.
    // NY: each tee sells for under $110, so the 4 % state tax (all the table charges) does not
    // apply to it, nor to the shipping that carries it: no tax.
    expect(orderSummary).toMatchObject({ subtotal: 127.47, tax: 0, taxRate: 0, shipping: 7.45, total: 134.92, discount: 22.5 });
  });
});

describe("200 buyers racing for 5 units", () => {
  it("gives exactly 5 paid orders, stock 0, and everyone else a sold-out message", async () => {
    const buyers = Array.from({ length: 200 }, (_, i) => `race-${i}`);
    for (const sessionId of buyers) await bag(sessionId, dropId);
    const results = await Promise.allSettled(
      buyers.map(async (sessionId) => {
        const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
        await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
        return confirmPayment(ctx, order.paymentIntentId);
      }),
    );
    const paid = results.filter((r) => r.status === "fulfilled" && r.value.status === "paid");
    const refused = results.filter((r) => r.status === "rejected");
    expect(paid).toHaveLength(5);
    expect(refused).toHaveLength(195);
    for (const r of refused) expect((r as PromiseRejectedResult).reason.message).toBe("Sorry, Drop Hoodie just sold out.");
    const product = await ctx.db.selectFrom("products").select("inventory").where("id", "=", dropId).executeTakeFirstOrThrow();
    expect(product.inventory).toBe(0);
    const sold = await ctx.db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select((eb) => eb.fn.sum<number>("quantity").as("n"))
      .where("productId", "=", dropId)
      .where("orders.status", "=", "processing")
      .executeTakeFirstOrThrow();
    expect(Number(sold.n)).toBe(5);
  }, 60_000);
});

describe("confirmation", () => {
  it("is idempotent: repeated confirms move the order once, one e-mail, one label", async () => {
    await bag("idem-1", teeId, 1);
    const order = await processOrder(ctx, { sessionId: "idem-1", customer, shippingMethod: "usps-priority" });
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
    const outcomes = await Promise.all([1, 2, 3].map(() => confirmPayment(ctx, order.paymentIntentId)));
    expect(outcomes.filter((o) => o.status === "paid" && o.firstTime)).toHaveLength(1);
    const id = order.orderSummary.orderId;
    const labels = () => ctx.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", id).execute();
    const mails = () =>
      ctx.db.selectFrom("mailMessages").selectAll().where("subject", "like", `%#${order.orderSummary.orderNumber}%`).execute();
    // The answer did not wait for them: the fulfilment job sends the e-mail and buys the label.
    expect(await labels()).toHaveLength(0);
    expect(await mails()).toHaveLength(0);
    await Promise.all([runFulfilmentJob(ctx), runFulfilmentJob(ctx)]);
    expect(await confirmPayment(ctx, order.paymentIntentId)).toMatchObject({ status: "paid", firstTime: false });
    await runFulfilmentJob(ctx);
    expect(await labels()).toHaveLength(1);
    expect(await mails()).toHaveLength(1);
    expect(await ctx.db.selectFrom("cartItems").selectAll().where("sessionId", "=", "idem-1").execute()).toEqual([]);
  });

  it("does not trust an unpaid intent, and a declined card keeps the hold for another try", async () => {
    await bag("decline-1", teeId, 2);
    const order = await processOrder(ctx, { sessionId: "decline-1", customer, shippingMethod: "usps-ground_saver" });
    expect((await confirmPayment(ctx, order.paymentIntentId)).status).toBe("pending");
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4000 0000 0000 0002" });
    expect(await confirmPayment(ctx, order.paymentIntentId)).toMatchObject({ status: "failed", message: "Your card was declined." });
    const holds = await ctx.db.selectFrom("inventoryHolds").select("status").where("orderId", "=", order.orderSummary.orderId).execute();
    expect(holds.map((h) => h.status)).toEqual(["held"]);
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
    expect((await confirmPayment(ctx, order.paymentIntentId)).status).toBe("paid");
  });

  it("releases an expired hold and cancels the payment", async () => {
    const before = (await ctx.db.selectFrom("products").select("inventory").where("id", "=", teeId).executeTakeFirstOrThrow()).inventory;
    await bag("expire-1", teeId, 4);
    const order = await processOrder(ctx, { sessionId: "expire-1", customer, shippingMethod: "usps-ground_saver" });
    expect((await ctx.db.selectFrom("products").select("inventory").where("id", "=", teeId).executeTakeFirstOrThrow()).inventory).toBe(
      before - 4,
    );
    ctx.clock.advance(10 * 60_000 + 1);
    // This order and the unpaid one from the pricing test.
    expect(await releaseExpiredHolds(ctx)).toBe(2);
    const holds = await ctx.db.selectFrom("inventoryHolds").select("status").where("orderId", "=", order.orderSummary.orderId).execute();
    expect(holds.map((h) => h.status)).toEqual(["released"]);
    expect((await ctx.db.selectFrom("products").select("inventory").where("id", "=", teeId).executeTakeFirstOrThrow()).inventory).toBe(
      before + 3,
    ); // + the pricing test's 3
    await expect(payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" })).rejects.toThrow(
      "This payment has expired",
    );
    expect((await confirmPayment(ctx, order.paymentIntentId)).status).toBe("cancelled");
  });

  it("confirms, on the sweep after the hold runs out, a payment nobody confirmed (no webhook, a closed tab)", async () => {
    await bag("stranded-1", teeId, 1);
    const order = await processOrder(ctx, { sessionId: "stranded-1", customer, shippingMethod: "usps-ground_saver" });
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
    ctx.clock.advance(10 * 60_000 + 1);
    await sweep(ctx);
    await runFulfilmentJob(ctx);
    const row = await ctx.db
      .selectFrom("orders")
      .select(["status", "paidAt"])
      .where("id", "=", order.orderSummary.orderId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("processing");
    expect(row.paidAt).not.toBeNull();
    const holds = await ctx.db.selectFrom("inventoryHolds").select("status").where("orderId", "=", order.orderSummary.orderId).execute();
    expect(holds.map((h) => h.status)).toEqual(["sold"]);
    const mails = await ctx.db
      .selectFrom("mailMessages")
      .select("subject")
      .where("tag", "=", "order-confirmation")
      .where("subject", "like", `%#${order.orderSummary.orderNumber}%`)
      .execute();
    expect(mails).toHaveLength(1);
  });

  it("puts expired holds back on the shelf when a buyer finds the stock short, and only then", async () => {
    const capId = (
      await ctx.db
        .insertInto("products")
        .values({ name: "Last Cap", description: "Two caps left only", priceCents: 3000, inventory: 2 })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    await bag("short-1", capId, 2);
    const first = await processOrder(ctx, { sessionId: "short-1", customer, shippingMethod: "usps-ground_saver" });
    ctx.clock.advance(10 * 60_000 + 1);
    const statusOf = async (id: number) =>
      (await ctx.db.selectFrom("orders").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

    // Stock to spare elsewhere: a checkout does not stop to expire other people's orders.
    await bag("short-2", teeId, 1);
    await processOrder(ctx, { sessionId: "short-2", customer, shippingMethod: "usps-ground_saver" });
    expect(await statusOf(first.orderSummary.orderId)).toBe("pending");

    // The last caps sit in a hold that ran out: the next buyer gets them.
    await bag("short-3", capId, 2);
    const second = await processOrder(ctx, { sessionId: "short-3", customer, shippingMethod: "usps-ground_saver" });
    expect(await statusOf(first.orderSummary.orderId)).toBe("cancelled");
    expect(await statusOf(second.orderSummary.orderId)).toBe("pending");
    expect((await ctx.db.selectFrom("products").select("inventory").where("id", "=", capId).executeTakeFirstOrThrow()).inventory).toBe(0);

    // Nothing left to release: sold out, as before.
    await bag("short-4", capId, 1);
    await expect(processOrder(ctx, { sessionId: "short-4", customer, shippingMethod: "usps-ground_saver" })).rejects.toThrow(
      "Sorry, Last Cap just sold out.",
    );
  });

  it("gives a buyer who presses Process Order again the last unit their own earlier order held", async () => {
    const pinId = (
      await ctx.db
        .insertInto("products")
        .values({ name: "Last Pin", description: "One pin left", priceCents: 1200, inventory: 1 })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
    await bag("again-1", pinId, 1);
    const first = await processOrder(ctx, { sessionId: "again-1", customer, shippingMethod: "usps-ground_saver" });
    const again = await processOrder(ctx, {
      sessionId: "again-1",
      customer: { ...customer, city: "Brooklyn" },
      shippingMethod: "usps-ground_saver",
    });
    expect(again.orderSummary.orderId).not.toBe(first.orderSummary.orderId);
    const orders = await ctx.db.selectFrom("orders").select(["id", "status"]).where("sessionId", "=", "again-1").orderBy("id").execute();
    expect(orders.map((o) => o.status)).toEqual(["cancelled", "pending"]);
    expect((await ctx.db.selectFrom("products").select("inventory").where("id", "=", pinId).executeTakeFirstOrThrow()).inventory).toBe(0);
  });
});

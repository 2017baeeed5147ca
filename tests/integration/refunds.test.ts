import { beforeAll, describe, expect, it } from "vitest";
import { payLocalIntent } from "#server/integrations/payments/local";
import { listOrders, setOrderStatus } from "#server/services/orders/admin-orders";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { processRefund, refundEligibility } from "#server/services/orders/refunds";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();
const customer = {
  email: "r@example.com",
  name: "Refund Rita",
  phone: "",
  street: "1 A St",
  city: "Portland",
  state: "OR",
  zipCode: "97201",
  country: "US",
};
let productId: number;
let adminId: number;

async function paidOrder(sessionId: string) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 2 }).execute();
  const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
  await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
  await confirmPayment(ctx, order.paymentIntentId);
  return order;
}

beforeAll(async () => {
  productId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Jacket", description: "Worn legacy jacket", priceCents: 20000, inventory: 50 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "b@example.com" });
  adminId = (await ctx.db.selectFrom("users").select("id").executeTakeFirstOrThrow()).id;
});

describe("refunds", () => {
  it("refunds the total less shipping by default, once, and records who did it", async () => {
    const order = await paidOrder("refund-1");
    const id = order.orderSummary.orderId;
    const eligibility = await refundEligibility(ctx, id);
    expect(eligibility).toMatchObject({
      eligible: true,
      eligibilityInfo: { message: "This order can be refunded." },
      order: { total: 406.7, shipping: 6.7, customerName: "Refund Rita", refundStatus: "none", refundAmount: 0 },
      refundable: { withShipping: 406.7, withoutShipping: 400 },
      existingRefunds: [],
    });

    const { refund } = await processRefund(ctx, id, { reason: "Damaged in transit", refundShipping: false }, adminId);
    expect(refund.amount).toBe(400);
    const row = await ctx.db
      .selectFrom("orders")
      .select(["refundStatus", "refundAmountCents"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ refundStatus: "completed", refundAmountCents: 40000 });
    const stored = await ctx.db.selectFrom("refunds").selectAll().where("orderId", "=", id).execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ adminUserId: adminId, reason: "Damaged in transit", shippingRefunded: 0 });

    await expect(processRefund(ctx, id, { reason: "Again", refundShipping: true }, adminId)).rejects.toThrow(
      "This order has already been refunded.",
    );
    expect(await refundEligibility(ctx, id)).toMatchObject({ eligible: false, refundable: { withShipping: 6.7, withoutShipping: 0 } });
  });

  it("includes shipping when asked, and a double click refunds once", async () => {
    const order = await paidOrder("refund-2");
    const id = order.orderSummary.orderId;
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => processRefund(ctx, id, { reason: "Changed mind", refundShipping: true }, adminId)),
    );
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(1);
    expect((ok[0] as PromiseFulfilledResult<{ refund: { amount: number } }>).value.refund.amount).toBe(406.7);
    const intent = await ctx.db
      .selectFrom("localPaymentIntents")
      .select(["refundedCents", "amountCents"])
      .where("id", "=", order.paymentIntentId)
      .executeTakeFirstOrThrow();
    expect(intent).toEqual({ refundedCents: 40670, amountCents: 40670 });
  });

  it("refuses an unpaid order", async () => {
    await ctx.db.insertInto("cartItems").values({ sessionId: "unpaid", productId, quantity: 1 }).execute();
    const order = await processOrder(ctx, { sessionId: "unpaid", customer, shippingMethod: "usps-ground_saver" });
    const eligibility = await refundEligibility(ctx, order.orderSummary.orderId);
    expect(eligibility).toMatchObject({
      eligible: false,
      eligibilityInfo: { message: "This order has not been paid, so there is nothing to refund." },
    });
    await expect(processRefund(ctx, order.orderSummary.orderId, { reason: "x", refundShipping: false }, adminId)).rejects.toThrow(
      "nothing to refund",
    );
  });
});

describe("admin orders", () => {
  it("lists orders newest first with their items, and sets any status", async () => {
    const orders = await listOrders(ctx);
    expect(orders.length).toBeGreaterThanOrEqual(3);
    expect(orders[0]!.items[0]).toMatchObject({ productName: "Jacket", productPrice: 200, quantity: 1 });
    const updated = await setOrderStatus(ctx, orders[0]!.id, "shipped");
    expect(updated.status).toBe("shipped");
    await expect(setOrderStatus(ctx, 999_999, "shipped")).rejects.toThrow("Order not found.");
  });
});

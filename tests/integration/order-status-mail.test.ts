import { beforeAll, describe, expect, it } from "vitest";
import { payLocalIntent } from "#server/integrations/payments/local";
import { ensureAdmin } from "#server/services/accounts/users";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { getOrderMailSettings, setOrderMailSettings } from "#server/services/mail/order-mail-settings";
import { useAppContextForTests } from "#server/boot";
import { appSettingsAction } from "#server/http/doors/admin-settings-door";
import { api, CookieJar } from "../setup/http";
import { setOrderStatus } from "#server/services/orders/admin-orders";
import { orderPageAnswer } from "#server/services/orders/order-page";
import { orderPageToken } from "#server/services/orders/order-page-token";
import { processRefund } from "#server/services/orders/refunds";
import { twoWorkers } from "../setup/context";
import { runFulfilmentJob, runRoute } from "./store-helpers";

const { workerA: ctx, workerB } = twoWorkers({ PUBLIC_URL: "http://shop.test" });
const ALL_ON = { shipped: true, delivered: true, cancelled: true, refunded: true };
let productId: number;
let adminId: number;

beforeAll(async () => {
  productId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Coach Jacket", description: "A jacket", priceCents: 12000, inventory: 50 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "b@example.com" });
  adminId = (await ctx.db.selectFrom("users").select("id").executeTakeFirstOrThrow()).id;
});

async function paidOrder(sessionId: string, email = `${sessionId}@example.com`) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
  const customer = {
    email,
    name: "Sam Shipped",
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
  return { id: order.orderSummary.orderId, number: order.orderSummary.orderNumber, email };
}

const mailsTo = (email: string, tag: string) =>
  ctx.db
    .selectFrom("mailMessages")
    .select(["subject", "htmlBody", "textBody"])
    .where("toAddress", "=", email)
    .where("tag", "=", tag)
    .execute();

describe("the buyer's e-mails on the way", () => {
  it('sends "Your order has shipped" with the carrier, tracking link and order page, once however often it is set', async () => {
    await setOrderMailSettings(ctx, ALL_ON);
    const order = await paidOrder("ship-1");
    ctx.clock.advance(60_000);
    await setOrderStatus(ctx, order.id, "shipped");
    await setOrderStatus(ctx, order.id, "processing");
    await setOrderStatus(ctx, order.id, "shipped");

    const mails = await mailsTo(order.email, "order-shipped");
    expect(mails).toHaveLength(1);
    const label = await ctx.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", order.id).executeTakeFirstOrThrow();
    const token = await orderPageToken(ctx, order.id);
    expect(mails[0]!.subject).toBe(`Your order has shipped (#${order.number})`);
    expect(mails[0]!.textBody).toContain(`Carrier: USPS\nTracking number: ${label.trackingNumber}`);
    expect(mails[0]!.textBody).toContain(`Track it: https://tools.usps.com/go/TrackConfirmAction?tLabels=${label.trackingNumber}`);
    expect(mails[0]!.htmlBody).toContain(`href="http://shop.test/orders/${token}"`);

    const answer = await orderPageAnswer(ctx, token!);
    expect(answer.status).toBe("shipped");
    expect(answer.timeline.map((s) => s.status)).toEqual(["placed", "paid", "label_created", "shipped"]);
    expect(answer.tracking?.number).toBe(label.trackingNumber);
  });

  it("sends the shipped e-mail once when two processes set the status at the same moment", async () => {
    await setOrderMailSettings(ctx, ALL_ON);
    const order = await paidOrder("ship-race");
    await Promise.all([
      setOrderStatus(ctx, order.id, "shipped"),
      setOrderStatus(workerB, order.id, "shipped"),
      setOrderStatus(ctx, order.id, "shipped"),
      setOrderStatus(workerB, order.id, "shipped"),
    ]);
    expect(await mailsTo(order.email, "order-shipped")).toHaveLength(1);
  });

  it("sends delivered and cancelled once each, and the timeline shows what happened", async () => {
    await setOrderMailSettings(ctx, ALL_ON);
    const delivered = await paidOrder("deliver-1");
    await setOrderStatus(ctx, delivered.id, "shipped");
    ctx.clock.advance(60_000);
    await setOrderStatus(ctx, delivered.id, "delivered");
    await setOrderStatus(ctx, delivered.id, "delivered");
    expect((await mailsTo(delivered.email, "order-delivered")).map((m) => m.subject)).toEqual([
      `Your order has been delivered (#${delivered.number})`,
    ]);
    const deliveredAnswer = await orderPageAnswer(ctx, (await orderPageToken(ctx, delivered.id))!);
    expect(deliveredAnswer.timeline.map((s) => s.status)).toEqual(["placed", "paid", "label_created", "shipped", "delivered"]);

    const cancelled = await paidOrder("cancel-1");
    ctx.clock.advance(60_000);
    await setOrderStatus(ctx, cancelled.id, "cancelled");
    await setOrderStatus(ctx, cancelled.id, "cancelled");
    expect(await mailsTo(cancelled.email, "order-cancelled")).toHaveLength(1);
    const cancelledAnswer = await orderPageAnswer(ctx, (await orderPageToken(ctx, cancelled.id))!);
    expect(cancelledAnswer.timeline.at(-1)).toEqual({ status: "cancelled", at: ctx.clock.now().toISOString() });
  });

  it("sends nothing of a kind the admin turned off, and sends it again once it is on", async () => {
    await setOrderMailSettings(ctx, { ...ALL_ON, shipped: false });
    const order = await paidOrder("ship-off");
    await setOrderStatus(ctx, order.id, "shipped");
    expect(await mailsTo(order.email, "order-shipped")).toHaveLength(0);
    await setOrderMailSettings(ctx, ALL_ON);
    await setOrderStatus(ctx, order.id, "shipped");
    expect(await mailsTo(order.email, "order-shipped")).toHaveLength(1);
  });

  it("e-mails a refund with the amount and the order page's link", async () => {
    await setOrderMailSettings(ctx, ALL_ON);
    const order = await paidOrder("refund-mail");
    await processRefund(ctx, order.id, { reason: "Too big", refundShipping: false }, adminId);
    const mails = await mailsTo(order.email, "order-refunded");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.textBody).toContain("We've refunded $120.00 to your card.");
    expect(mails[0]!.textBody).toContain(`View your order: http://shop.test/orders/${await orderPageToken(ctx, order.id)}`);
  });
});

describe("App Settings → Order E-mails", () => {
  it("turns each kind on or off from the admin's form, and only the admin's", async () => {
    useAppContextForTests(ctx);
    const admin = new CookieJar();
    await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
    const form = { intent: "order-emails", shipped: "on", refunded: "on" };
    const saved = await runRoute<{ notice: { title: string } }>(appSettingsAction, { path: "/admin/app-settings", form, jar: admin });
    expect(saved.status).toBe(200);
    expect(saved.data.notice.title).toBe("Order E-mails Updated");
    expect(await getOrderMailSettings(ctx)).toEqual({ shipped: true, delivered: false, cancelled: false, refunded: true });

    const stranger = await runRoute(appSettingsAction, {
      path: "/admin/app-settings",
      form: { intent: "order-emails" },
      jar: new CookieJar(),
    });
    expect(stranger.status).not.toBe(200);
    expect(await getOrderMailSettings(ctx)).toEqual({ shipped: true, delivered: false, cancelled: false, refunded: true });

    const order = await paidOrder("cancel-off");
    await setOrderStatus(ctx, order.id, "cancelled");
    expect(await mailsTo(order.email, "order-cancelled")).toHaveLength(0);
    await setOrderMailSettings(ctx, ALL_ON);
  });
});

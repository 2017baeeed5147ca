// The order confirmation goes out once, even when the database goes away around the send
// (decision 0063). As in crash-safe-money.test.ts, the crash is a write the database refuses
// (a trigger), standing for a process or a database that died at that instant; the store is then
// "restarted" (the trigger gone) and the fulfilment job runs again.
import { beforeEach, describe, expect, it } from "vitest";
import { SEND_SETTLE_MS } from "#server/integrations/mail";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { fulfilBackoffMs, fulfilDueOrders } from "#server/services/fulfilment/fulfilment";
import { setOrderMailSettings } from "#server/services/mail/order-mail-settings";
import { sendOrderMail } from "#server/services/orders/order-status-mail";
import { postmarkState } from "../mocks/postmark";
import { createTestContext, TEST_ENGINE, type TestContext } from "../setup/context";
import { expectLoggedErrors } from "../setup/log-capture";
import { powerCut } from "../setup/power-cut";
import { addProduct, runFulfilmentJob } from "./store-helpers";

const postmark = createTestContext({ POSTMARK_SERVER_TOKEN: "pm-token", POSTMARK_FROM: "store@legacy.test" });
const outbox = createTestContext();

let n = 0;
const buyer = () => ({
  email: `once${++n}@example.com`,
  name: "Pat Once",
  phone: "",
  street: `${n} Main Street`,
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
});

beforeEach(() => postmarkState.reset());

/** A paid order, due for its confirmation and label. */
async function paidOrder(c: TestContext) {
  const productId = await addProduct(c, { name: `Once Tee ${++n}`, inventory: 5 });
  const who = buyer();
  const sessionId = `once-session-${n}`;
  await c.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
  const placed = await processOrder(c, { sessionId, customer: who, shippingMethod: "usps-ground_saver" });
  await c.db.updateTable("localPaymentIntents").set({ status: "succeeded" }).where("id", "=", placed.paymentIntentId).execute();
  expect((await confirmPayment(c, placed.paymentIntentId)).status).toBe("paid");
  return { orderId: placed.orderSummary.orderId, email: who.email };
}

/** What reached Postmark for this buyer. */
const confirmationsAt = (email: string) => postmarkState.accepted.filter((m) => m.To === email);
const confirmationRows = (c: TestContext, email: string) =>
  c.db
    .selectFrom("mailMessages")
    .select(["status", "providerMessageId"])
    .where("toAddress", "=", email)
    .where("tag", "=", "order-confirmation")
    .execute();
const sentAt = async (c: TestContext, orderId: number) =>
  (await c.db.selectFrom("orders").select("confirmationSentAt").where("id", "=", orderId).executeTakeFirstOrThrow()).confirmationSentAt;

/** The job's next pass, once the order's next try has come. */
async function nextPass(c: TestContext) {
  c.clock.advance(fulfilBackoffMs(1));
  await runFulfilmentJob(c);
}

describe("the confirmation with Postmark", () => {
  it("is not sent twice when its record is lost after Postmark accepted it", async () => {
    const { orderId, email } = await paidOrder(postmark);
    // Postmark accepts the message; the database refuses every write of its record.
    const restart = await powerCut(postmark, "mail_messages", "NEW.tag = 'order-confirmation'");
    await runFulfilmentJob(postmark);
    await restart();
    expectLoggedErrors();
    expect(confirmationsAt(email)).toHaveLength(1);
    expect(await sentAt(postmark, orderId)).toBeNull();

    await nextPass(postmark);
    expect(confirmationsAt(email)).toHaveLength(1);
    expect(await sentAt(postmark, orderId)).not.toBeNull();
    expect(await confirmationRows(postmark, email)).toEqual([{ status: "sent", providerMessageId: confirmationsAt(email)[0]!.MessageID }]);
    expect(confirmationsAt(email)[0]!.Metadata).toEqual({ idempotency_key: `order-${orderId}-confirmation` });

    await nextPass(postmark);
    expect(confirmationsAt(email)).toHaveLength(1);
  });

  it("is not sent twice when the order's mark is lost after the message was recorded", async () => {
    const { orderId, email } = await paidOrder(postmark);
    const restart = await powerCut(postmark, "orders", "NEW.confirmation_sent_at IS NOT NULL");
    await runFulfilmentJob(postmark);
    await restart();
    expectLoggedErrors();
    expect(confirmationsAt(email)).toHaveLength(1);

    await nextPass(postmark);
    expect(confirmationsAt(email)).toHaveLength(1);
    expect(await sentAt(postmark, orderId)).not.toBeNull();
    expect(await confirmationRows(postmark, email)).toEqual([expect.objectContaining({ status: "sent" })]);
  });

  it.skipIf(TEST_ENGINE !== "postgres")("is not sent twice when the database went away after Postmark accepted it", async () => {
    const { orderId, email } = await paidOrder(postmark);
    // A restart (57P01) as the record is written: the order stays due as it was, no try counted.
    const restart = await powerCut(postmark, "mail_messages", "NEW.tag = 'order-confirmation'", "restarting", "57P01");
    await expect(fulfilDueOrders(postmark)).rejects.toThrow("restarting");
    await restart();
    expect(confirmationsAt(email)).toHaveLength(1);
    const due = await postmark.db
      .selectFrom("orders")
      .select(["fulfilAttempts", "fulfilNextAt"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(due).toEqual({ fulfilAttempts: 0, fulfilNextAt: null });

    postmark.clock.advance(SEND_SETTLE_MS);
    await runFulfilmentJob(postmark);
    expect(confirmationsAt(email)).toHaveLength(1);
    expect(await sentAt(postmark, orderId)).not.toBeNull();
    expect(await confirmationRows(postmark, email)).toEqual([expect.objectContaining({ status: "sent" })]);
  });

  it("is sent once when its key was recorded but Postmark was never reached", async () => {
    const { orderId, email } = await paidOrder(postmark);
    // What a try that died right after claiming the key leaves behind.
    await postmark.db
      .insertInto("mailSends")
      .values({ idempotencyKey: `order-${orderId}-confirmation`, attemptedAt: postmark.clock.now().toISOString() })
      .execute();
    postmark.clock.advance(SEND_SETTLE_MS);
    await runFulfilmentJob(postmark);
    expect(confirmationsAt(email)).toHaveLength(1);
    expect(await sentAt(postmark, orderId)).not.toBeNull();
    expect(await confirmationRows(postmark, email)).toEqual([expect.objectContaining({ status: "sent" })]);
  });
});

describe("an order status e-mail with Postmark", () => {
  it("given back after its record was lost, is not sent again by the next try", async () => {
    await setOrderMailSettings(postmark, { shipped: true, delivered: true, cancelled: true, refunded: true });
    const { orderId, email } = await paidOrder(postmark);
    await runFulfilmentJob(postmark);
    const confirmed = confirmationsAt(email).length;
    const restart = await powerCut(postmark, "mail_messages", "NEW.tag = 'order-shipped'");
    await expect(sendOrderMail(postmark, orderId, "shipped")).rejects.toThrow("power cut");
    await restart();
    const shipped = () => confirmationsAt(email).length - confirmed;
    expect(shipped()).toBe(1);

    postmark.clock.advance(SEND_SETTLE_MS);
    expect(await sendOrderMail(postmark, orderId, "shipped")).toBe(true);
    expect(shipped()).toBe(1);
    const rows = await postmark.db
      .selectFrom("mailMessages")
      .select("status")
      .where("toAddress", "=", email)
      .where("tag", "=", "order-shipped")
      .execute();
    expect(rows).toEqual([{ status: "sent" }]);
  });
});

describe("the confirmation in the local outbox", () => {
  it("is stored once when the order's mark is lost after the message was stored", async () => {
    const { orderId, email } = await paidOrder(outbox);
    const restart = await powerCut(outbox, "orders", "NEW.confirmation_sent_at IS NOT NULL");
    await runFulfilmentJob(outbox);
    await restart();
    expectLoggedErrors();
    expect(await confirmationRows(outbox, email)).toHaveLength(1);

    await nextPass(outbox);
    expect(await sentAt(outbox, orderId)).not.toBeNull();
    expect(await confirmationRows(outbox, email)).toEqual([{ status: "stored", providerMessageId: null }]);
  });
});

import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { payLocalIntent } from "#server/integrations/payments/local";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { resetOrderLookupLimits } from "#server/services/orders/order-lookup";
import { orderLookupAction, type OrderLookupActionData } from "#server/http/doors/order-page-door";
import { createTestContext } from "../setup/context";
import { api } from "../setup/http";
import { runRoute } from "./store-helpers";

const ctx = createTestContext({ PUBLIC_URL: "http://shop.test" });
const SENT = { message: "If that order exists, we've e-mailed a link to it." };
let productId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  productId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Cap", description: "A cap", priceCents: 3500, inventory: 50 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});
beforeEach(() => resetOrderLookupLimits(ctx));

async function paidOrder(sessionId: string, email: string) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity: 1 }).execute();
  const customer = {
    email,
    name: "Lou Lookup",
    phone: "",
    street: "9 Pine Rd",
    city: "Austin",
    state: "TX",
    zipCode: "73301",
    country: "US",
  };
  const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
  await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
  await confirmPayment(ctx, order.paymentIntentId);
  return order.orderSummary.orderNumber;
}

const linkMails = () => ctx.db.selectFrom("mailMessages").select(["toAddress", "textBody"]).where("tag", "=", "order-link").execute();
const lookup = (body: unknown, ip = "198.51.100.1") => api("POST", "/api/orders/lookup", { body, ip });

describe("POST /api/orders/lookup", () => {
  it("answers the same for a real and a made-up order, and e-mails only the real one's own address", async () => {
    const number = await paidOrder("lookup-1", "lou@example.com");
    const before = (await linkMails()).length;

    const real = await lookup({ email: "LOU+shop@Example.com", orderNumber: `#${number.toLowerCase()}` });
    const madeUp = await lookup({ email: "lou@example.com", orderNumber: "ZZZZ9999" });
    const wrongMailbox = await lookup({ email: "someone@example.com", orderNumber: number });
    for (const response of [real, madeUp, wrongMailbox]) {
      expect(response.status).toBe(202);
      expect(await response.json()).toEqual(SENT);
    }

    const mails = (await linkMails()).slice(before);
    expect(mails.map((m) => m.toAddress)).toEqual(["lou@example.com"]);
    const link = /View your order: (\S+)/.exec(mails[0]!.textBody ?? "")![1]!;
    expect(link).toMatch(/^http:\/\/shop\.test\/orders\//);
    const opened = await api("GET", new URL(link).pathname.replace(/^\/orders/, "/api/orders"));
    expect(opened.status).toBe(200);
    expect((await opened.json()).orderNumber).toBe(number);
  });

  it("refuses a bad e-mail or an empty number with 400 and sends nothing", async () => {
    const before = (await linkMails()).length;
    const response = await lookup({ email: "not-an-email", orderNumber: "" });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual({ email: ["Please enter a valid email address"], orderNumber: ["Please enter your order number"] });
    expect((await linkMails()).length).toBe(before);
  });

  it("allows one mailbox three lookups an hour, from any network", async () => {
    const number = await paidOrder("lookup-2", "mo@example.com");
    for (let i = 0; i < 3; i++)
      expect((await lookup({ email: "mo@example.com", orderNumber: number }, `203.0.113.${i + 1}`)).status).toBe(202);
    const refused = await lookup({ email: "MO@example.com", orderNumber: number }, "203.0.113.99");
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toMatch(/^Too many lookups\. Please try again in \d+ minutes?\.$/);
  });

  it("allows one network ten lookups in 15 minutes, whatever the e-mails", async () => {
    for (let i = 0; i < 10; i++)
      expect((await lookup({ email: `guess${i}@example.com`, orderNumber: "ABCD1234" }, "192.0.2.7")).status).toBe(202);
    expect((await lookup({ email: "guess-last@example.com", orderNumber: "ABCD1234" }, "192.0.2.7")).status).toBe(429);
  });
});

describe("the /orders form, without JavaScript", () => {
  it("gives the same notice for any order and e-mails the real one", async () => {
    const number = await paidOrder("lookup-3", "fay@example.com");
    const before = (await linkMails()).length;
    for (const orderNumber of [number, "NOPE0000"]) {
      const page = await runRoute<OrderLookupActionData>(orderLookupAction, {
        path: "/orders",
        form: { email: "fay@example.com", orderNumber },
      });
      expect(page.status).toBe(202);
      expect(page.data.sent).toBe(SENT.message);
    }
    expect((await linkMails()).slice(before).map((m) => m.toAddress)).toEqual(["fay@example.com"]);
  });
});

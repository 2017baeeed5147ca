import { beforeAll, describe, expect, it } from "vitest";
import * as checkoutPage from "#app/routes/checkout";
import * as payPage from "#app/routes/checkout_.pay.$paymentIntentId";
import { useAppContextForTests } from "#server/boot";
import { listOrders } from "#server/services/orders/admin-orders";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import type { CheckoutActionData, PayLoaderData } from "#server/http/doors/checkout-door";
import { addProduct, runFulfilmentJob, runRoute } from "./store-helpers";

// What the buyer is told about tax at checkout is what the order, its e-mail and the back office
// say afterwards: the REST doors the screen uses, a real database, the outbox.
const ctx = createTestContext();
const newYork = { street: "350 5th Ave", city: "New York", state: "NY", zipCode: "10001", country: "US" };
const customerInfo = { email: "nina@example.com", name: "Nina Buyer", phone: "", ...newYork };
let jacketId: number;
let teeId: number;
let shirtId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  jacketId = await addProduct(ctx, { name: "Drop Jacket", priceCents: 12_000, inventory: 50 });
  teeId = await addProduct(ctx, { name: "Plain Tee", priceCents: 4_000, inventory: 50 });
  shirtId = await addProduct(ctx, { name: "Oxford Shirt", priceCents: 10_000, inventory: 50 });
});

async function shopperWith(lines: [productId: number, quantity: number][]) {
  const jar = new CookieJar();
  for (const [productId, quantity] of lines) {
    const added = await api("POST", "/api/cart", { body: { productId, quantity }, jar });
    expect(added.status).toBe(201);
  }
  return jar;
}

const calculateTax = (body: unknown, jar?: CookieJar) => api("POST", "/api/calculate-tax", { body, jar });
const rates = async (address: object, jar: CookieJar) =>
  (await (await api("POST", "/api/shipping/calculate", { body: { address, packageWeight: 1 }, jar })).json()) as {
    key: string;
    method: string;
    cost: number;
  }[];
const processOrder = (body: unknown, jar: CookieJar) => api("POST", "/api/process-order", { body, jar, ip: "198.51.100.10" });

describe("POST /api/calculate-tax with a bag", () => {
  it("taxes the bag's items, not the subtotal sent: two $100 shirts in New York are two exempt items", async () => {
    const jar = await shopperWith([[shirtId, 2]]);
    const response = await calculateTax({ state: "NY", country: "US", subtotal: 200 }, jar);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ taxRate: 0, taxAmount: 0, taxLabel: "New York Sales Tax" });
    // The same subtotal from a caller without a bag counts as one $200 item: 4 % of 200.
    expect(await (await calculateTax({ state: "NY", country: "US", subtotal: 200 })).json()).toEqual({
      taxRate: 0.04,
      taxAmount: 8,
      taxLabel: "New York Sales Tax",
    });
  });

  it("announces what Process Order stores, and the e-mail and the back office show it to the cent", async () => {
    const jar = await shopperWith([
      [jacketId, 1],
      [teeId, 1],
    ]);
    const saver = (await rates(newYork, jar)).find((rate) => rate.method === "ground_saver")!;
    expect(saver.cost).toBe(6.7); // 2 lb: 5.95 + 0.75

    // Only the $120 jacket is taxed (4 %), with its share of the shipping: 120/160 of 6.70.
    // 4 % × (120 + 5.025) = 5.001 → 5.00; that is 5 / 160 = 3.125 % of the goods.
    const announced = await (await calculateTax({ state: "NY", country: "US", subtotal: 160, shippingCost: saver.cost }, jar)).json();
    expect(announced).toEqual({ taxRate: 0.03125, taxAmount: 5, taxLabel: "New York Sales Tax" });

    const processed = await processOrder({ customerInfo, shippingMethod: saver.key, shippingCost: saver.cost }, jar);
    expect(processed.status).toBe(201);
    const { clientSecret, paymentIntentId, orderSummary } = await processed.json();
    expect(orderSummary).toMatchObject({
      subtotal: 160,
      shipping: 6.7,
      tax: announced.taxAmount,
      taxRate: announced.taxRate,
      total: 171.7,
    });
    const stored = await ctx.db
      .selectFrom("orders")
      .select(["id", "taxCents", "totalCents"])
      .where("paymentIntentId", "=", paymentIntentId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ taxCents: 500, totalCents: 17_170 });

    const paid = await api("POST", "/api/local-payments/confirm", { body: { clientSecret, cardNumber: "4242 4242 4242 4242" } });
    expect(await paid.json()).toMatchObject({ status: "paid" });
    await runFulfilmentJob(ctx);
    const mail = await ctx.db
      .selectFrom("mailMessages")
      .select(["textBody", "htmlBody"])
      .where("toAddress", "=", customerInfo.email)
      .where("tag", "=", "order-confirmation")
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.textBody).toContain("Tax: $5.00");
    expect(mail[0]!.textBody).toContain("Total: $171.70");
    expect(mail[0]!.htmlBody).toContain('<th align="left">Tax</th><td align="right">$5.00</td>');

    const inBackOffice = (await listOrders(ctx)).find((order) => order.id === stored.id);
    expect(inBackOffice).toMatchObject({ tax: 5, total: 171.7 });
  });

  it("taxes nothing in Pennsylvania, shipping included", async () => {
    const jar = await shopperWith([[jacketId, 1]]);
    const response = await calculateTax({ state: "PA", country: "US", subtotal: 120, shippingCost: 5.95 }, jar);
    expect(await response.json()).toEqual({ taxRate: 0, taxAmount: 0, taxLabel: "Pennsylvania Sales Tax" });
  });
});

describe("the checkout without JavaScript", () => {
  it("estimates with the chosen rate's shipping, and the payment page shows the stored tax", async () => {
    const jar = await shopperWith([
      [jacketId, 1],
      [teeId, 1],
    ]);
    const form = { ...customerInfo, state: "ny" };
    const quoted = await runRoute<CheckoutActionData>(checkoutPage.action, { path: "/checkout", form: { intent: "rates", ...form }, jar });
    expect(quoted.data.shippingMethod).toBe("usps-ground_saver");
    // The same figures as the REST doors give for this bag: 5.00, 3.125 % of the goods.
    expect(quoted.data.tax).toEqual({ taxRate: 0.03125, taxAmount: 5, taxLabel: "New York Sales Tax" });

    // Priority (9.95 + 1.25 = 11.20): 4 % × (120 + 11.20 × 0.75) = 5.136 → 5.14.
    const priority = await runRoute<CheckoutActionData>(checkoutPage.action, {
      path: "/checkout",
      form: { intent: "rates", ...form, shippingMethod: "usps-priority" },
      jar,
    });
    expect(priority.data.tax).toMatchObject({ taxAmount: 5.14 });

    const processed = await runRoute(checkoutPage.action, {
      path: "/checkout",
      form: { intent: "process", ...form, shippingMethod: "usps-priority" },
      jar,
    });
    expect(processed.status).toBe(302);
    const paymentIntentId = (processed.headers.get("Location") ?? "").split("/").pop()!;
    const page = await runRoute<PayLoaderData>(payPage.loader, {
      path: `/checkout/pay/${paymentIntentId}`,
      params: { paymentIntentId },
      jar,
    });
    // 5.14 / 160 = 0.032125.
    expect(page.data).toMatchObject({
      subtotal: 160,
      shipping: 11.2,
      tax: { taxRate: 0.032125, taxAmount: 5.14, taxLabel: "New York Sales Tax" },
      total: 176.34,
    });
  });
});

describe("POST /api/calculate-tax with a bare subtotal (no bag)", () => {
  it("answers for the subtotal as one item: a $200 item in Massachusetts is taxed on $25", async () => {
    const response = await calculateTax({ state: "ma", country: "us", subtotal: 200 });
    expect(response.status).toBe(200);
    // 6.25 % of 25 = 1.5625 → 1.56; 1.56 / 200 = 0.78 %.
    expect(await response.json()).toEqual({ taxRate: 0.0078, taxAmount: 1.56, taxLabel: "Massachusetts Sales Tax" });
  });

  it("adds the shipping cost sent where the state taxes it, and nothing abroad", async () => {
    // Texas 6.25 % of 35 + 5.95 = 2.559375 → 2.56.
    expect(await (await calculateTax({ state: "TX", country: "US", subtotal: 35, shippingCost: 5.95 })).json()).toMatchObject({
      taxAmount: 2.56,
    });
    expect(await (await calculateTax({ state: "", country: "DE", subtotal: 35, shippingCost: 5.95 })).json()).toEqual({
      taxRate: 0,
      taxAmount: 0,
      taxLabel: "Sales Tax",
    });
  });

  it("refuses a negative shipping cost with a readable message", async () => {
    const response = await calculateTax({ state: "TX", country: "US", subtotal: 35, shippingCost: -1 });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("shippingCost must not be negative");
  });
});

describe("Process Order and the rates' keys", () => {
  it("takes the method as a caller builds it from carrier and method, in any case", async () => {
    for (const shippingMethod of ["USPS-ground_saver", "Usps-Ground_Saver"]) {
      const jar = await shopperWith([[teeId, 1]]);
      const response = await processOrder({ customerInfo, shippingMethod }, jar);
      expect(response.status).toBe(201);
      const { paymentIntentId } = await response.json();
      const order = await ctx.db
        .selectFrom("orders")
        .select("shippingMethod")
        .where("paymentIntentId", "=", paymentIntentId)
        .executeTakeFirstOrThrow();
      expect(order.shippingMethod).toBe("usps-ground_saver");
    }
  });

  it("takes every rate's key, at home and abroad, and charges that rate", async () => {
    const abroad = { street: "Unter den Linden 1", city: "Berlin", state: "", zipCode: "10117", country: "DE" };
    for (const address of [newYork, abroad]) {
      const jar = await shopperWith([[teeId, 1]]);
      const offered = await rates(address, jar);
      expect(offered.length).toBeGreaterThan(1);
      for (const rate of offered) {
        const response = await processOrder({ customerInfo: { ...customerInfo, ...address }, shippingMethod: rate.key }, jar);
        expect(response.status).toBe(201);
        expect((await response.json()).orderSummary.shipping).toBe(rate.cost);
      }
    }
  });
});

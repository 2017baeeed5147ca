import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();
const customerInfo = {
  email: "b@example.com",
  name: "Bea Buyer",
  phone: "",
  street: "5 Elm St",
  city: "Austin",
  state: "tx",
  zipCode: "73301",
  country: "US",
};
let productId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  productId = (
    await ctx.db
      .insertInto("products")
      .values({ name: "Cap", description: "A six-panel cap", priceCents: 3500, inventory: 3 })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
});

async function shopperWithBag() {
  const jar = new CookieJar();
  const added = await api("POST", "/api/cart", { body: { productId, quantity: 1 }, jar });
  expect(added.status).toBe(201);
  return jar;
}

describe("POST /api/shipping/calculate", () => {
  it("returns the rates for the bag, ground_saver first, in dollars", async () => {
    const jar = await shopperWithBag();
    const response = await api("POST", "/api/shipping/calculate", {
      jar,
      body: { address: { street: "5 Elm St", city: "Austin", state: "TX", zipCode: "73301", country: "US" }, packageWeight: 1 },
    });
    const rates = await response.json();
    expect(rates[0]).toEqual({
      key: "usps-ground_saver",
      carrier: "USPS",
      method: "ground_saver",
      cost: 5.95,
      description: "USPS Ground Advantage",
      estimatedDays: 5,
    });
  });

  it("returns no rates for an address it cannot ship to", async () => {
    const jar = await shopperWithBag();
    const response = await api("POST", "/api/shipping/calculate", {
      jar,
      body: { address: { street: "x", city: "y", state: "TX", zipCode: "nope", country: "US" } },
    });
    expect(await response.json()).toEqual([]);
  });

  it("refuses an empty bag with the spec's message", async () => {
    const response = await api("POST", "/api/shipping/calculate", {
      body: { address: { street: "x", city: "y", state: "TX", zipCode: "73301", country: "US" } },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Add some items to your cart before checking out.");
  });
});

describe("POST /api/calculate-tax", () => {
  it("answers taxRate as a fraction, taxAmount in dollars and a label", async () => {
    const response = await api("POST", "/api/calculate-tax", { body: { state: "TX", country: "US", subtotal: 35 } });
    // 6.25 % of 35 = 2.1875 → 2.19; the rate is what that is of the subtotal: 2.19 / 35 = 0.0625714…
    expect(await response.json()).toEqual({ taxRate: 0.062571, taxAmount: 2.19, taxLabel: "Texas Sales Tax" });
  });
});

describe("process-order, local card, confirm-order", () => {
  it("runs the whole payment: declined card message, then paid, then confirm-order is idempotent", async () => {
    const jar = await shopperWithBag();
    const processed = await api("POST", "/api/process-order", {
      jar,
      body: { customerInfo, shippingMethod: "usps-ground_saver", shippingCost: 0.01 },
    });
    expect(processed.status).toBe(201);
    const { clientSecret, paymentIntentId, orderSummary } = await processed.json();
    // The client's shippingCost of 0.01 is ignored: the server quotes 5.95. Texas taxes delivery
    // of taxable goods: 6.25 % of 40.95 = 2.559375 → 2.56, which is 2.56 / 35 = 7.3143 % of the goods.
    expect(orderSummary).toMatchObject({ subtotal: 35, shipping: 5.95, tax: 2.56, taxRate: 0.073143, total: 43.51 });

    const declined = await api("POST", "/api/local-payments/confirm", { body: { clientSecret, cardNumber: "4000 0000 0000 0002" } });
    expect(declined.status).toBe(402);
    expect((await declined.json()).message).toBe("Your card was declined.");

    const paid = await api("POST", "/api/local-payments/confirm", { body: { clientSecret, cardNumber: "4242 4242 4242 4242" } });
    expect(await paid.json()).toMatchObject({ status: "paid", orderNumber: paymentIntentId.slice(-8).toUpperCase(), firstTime: true });
    const again = await api("POST", "/api/confirm-order", { body: { paymentIntentId, customerInfo } });
    expect(await again.json()).toMatchObject({ status: "paid", firstTime: false });
    const order = await ctx.db
      .selectFrom("orders")
      .select(["status", "totalCents"])
      .where("paymentIntentId", "=", paymentIntentId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ status: "processing", totalCents: 4351 });
    const bag = await api("GET", "/api/cart", { jar });
    expect((await bag.json()).cartItems).toEqual([]);
  });

  it("gives the spec's message when required fields are missing", async () => {
    const jar = await shopperWithBag();
    const response = await api("POST", "/api/process-order", {
      jar,
      body: { customerInfo: { ...customerInfo, street: "" }, shippingMethod: "usps-ground_saver" },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("Please fill in all required fields and select a shipping method.");
  });

  it("refuses an unknown payment with 404", async () => {
    const response = await api("POST", "/api/confirm-order", { body: { paymentIntentId: "pi_nope" } });
    expect(response.status).toBe(404);
  });
});

describe("checkout rate limit", () => {
  it("answers 429 with a readable message after 60 Process Order attempts from one address", async () => {
    const { resetCheckoutLimits } = await import("#server/services/checkout/checkout");
    await resetCheckoutLimits(ctx);
    const jar = await shopperWithBag();
    const attempt = () =>
      api("POST", "/api/process-order", {
        jar,
        ip: "198.51.100.77",
        body: { customerInfo: { ...customerInfo, zipCode: "nope" }, shippingMethod: "usps-ground_saver" },
      });
    for (let i = 0; i < 60; i++) expect((await attempt()).status).toBe(400);
    const blocked = await attempt();
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).message).toMatch(/^Too many checkout attempts from your network\./);
  });
});

import fs from "node:fs";
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { shipFromAddress } from "#server/config";
import { CHECKOUT_MESSAGES, processOrderSchema } from "#server/contracts/checkout";
import { payLocalIntent } from "#server/integrations/payments/local";
import { shippingFor } from "#server/integrations/shipping";
import { processOrder, quoteShipping } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { testShippingLabel } from "#server/services/fulfilment/shipping-test";
import { SHIPPO_CUSTOMS_REQUIRED_MESSAGE, SHIPPO_LABEL_ERROR_MESSAGE, SHIPPO_TEST_ADDRESSES, shippoState } from "../mocks/shippo";
import { createTestContext, type TestContext } from "../setup/context";
import { runFulfilmentJob } from "./store-helpers";

const ctx = createTestContext({ SHIPPO_API_KEY: "shippo_test_0123456789abcdef" });
const localCtx = createTestContext();
const liveCtx = createTestContext({ SHIPPO_API_KEY: "shippo_live_0123456789abcdef" });

const customer = {
  email: "buyer@example.com",
  name: "Ada Buyer",
  phone: "+1 518 555 0142",
  street: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
};
let hoodieId: number;
let capId: number;

async function product(
  c: TestContext,
  values: { name: string; priceCents: number; weight: number; length: number; width: number; height: number },
) {
  const row = await c.db
    .insertInto("products")
    .values({ description: `${values.name} for the Shippo tests`, inventory: 50, ...values })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function bag(sessionId: string, productId: number, quantity = 1) {
  await ctx.db.insertInto("cartItems").values({ sessionId, productId, quantity }).execute();
}

/** Checkout, a test card, and the confirmation: the path a paid order takes in local payment mode. */
async function paidOrder(sessionId: string, address: Partial<typeof customer> = {}) {
  await bag(sessionId, hoodieId, 1);
  const order = await processOrder(ctx, { sessionId, customer: { ...customer, ...address }, shippingMethod: "usps-usps_ground_advantage" });
  await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
  const outcome = await confirmPayment(ctx, order.paymentIntentId);
  // The label is the fulfilment job's (decision 0027), within a second of the payment in the store.
  await runFulfilmentJob(ctx);
  return { order, outcome, orderId: order.orderSummary.orderId };
}

beforeAll(async () => {
  hoodieId = await product(ctx, { name: "Heavy Hoodie", priceCents: 9000, weight: 2, length: 14, width: 11, height: 3 });
  capId = await product(ctx, { name: "Cap", priceCents: 3000, weight: 0.5, length: 8, width: 8, height: 5 });
});
beforeEach(() => shippoState.reset());

describe("Shippo rates", () => {
  it("asks Shippo for a shipment from the ship-from address with the bag's parcel, and maps the rates cheapest first", async () => {
    await bag("rates-1", hoodieId, 2);
    await bag("rates-1", capId, 1);
    const rates = await quoteShipping(ctx, "rates-1", {
      street: "1 Main St",
      city: "Albany",
      state: "NY",
      zipCode: "12207",
      country: "US",
    });

    const [sent] = shippoState.shipmentRequests();
    const from = ctx.config.shippo.from;
    expect(sent).toMatchObject({
      address_from: {
        name: from.name,
        street1: from.street1,
        city: from.city,
        state: from.state,
        zip: from.zip,
        country: from.country,
        phone: from.phone,
      },
      address_to: { street1: "1 Main St", city: "Albany", state: "NY", zip: "12207", country: "US" },
      // 2 × 2 lb + 0.5 lb, in the largest item's box.
      parcels: [{ length: "14", width: "11", height: "5", distance_unit: "in", weight: "4.5", mass_unit: "lb" }],
      async: false,
    });

    // The mock prices per started pound: 5 lb.
    expect(rates.map(({ providerRateId: _, ...r }) => r)).toEqual([
      {
        key: "usps-usps_ground_advantage",
        carrier: "USPS",
        method: "usps_ground_advantage",
        costCents: 545 + 4 * 70,
        description: "Ground Advantage",
        estimatedDays: 5,
      },
      {
        key: "usps-usps_priority",
        carrier: "USPS",
        method: "usps_priority",
        costCents: 945 + 4 * 120,
        description: "Priority Mail",
        estimatedDays: 2,
      },
      { key: "ups-ups_ground", carrier: "UPS", method: "ups_ground", costCents: 1189 + 4 * 105, description: "Ground", estimatedDays: 4 },
      {
        key: "usps-usps_priority_express",
        carrier: "USPS",
        method: "usps_priority_express",
        costCents: 3085 + 4 * 260,
        description: "Priority Mail Express",
        estimatedDays: 1,
      },
    ]);
    for (const rate of rates) expect(shippoState.rates.has(rate.providerRateId!)).toBe(true);
  });

  it("quotes international addresses with the carriers Shippo offers there", async () => {
    await bag("rates-intl", capId, 1);
    const rates = await quoteShipping(ctx, "rates-intl", {
      street: "10 Downing St",
      city: "London",
      state: "",
      zipCode: "SW1A 2AA",
      country: "GB",
    });
    expect(rates.map((r) => [r.key, r.carrier, r.method, r.costCents])).toEqual([
      ["usps-usps_priority_mail_international", "USPS", "usps_priority_mail_international", 4480],
      ["dhlexpress-dhl_express_worldwide", "DHL Express", "dhl_express_worldwide", 5210],
    ]);
    expect(shippoState.shipmentRequests()[0]).toMatchObject({ address_to: { country: "GB", zip: "SW1A 2AA" } });
  });

  it("gives every rate a key that Process Order's contract takes and the order keeps", async () => {
    await bag("rates-keys", capId, 1);
    const abroad = { street: "10 Downing St", city: "London", state: "", zipCode: "SW1A 2AA", country: "GB" };
    for (const address of [customer, abroad]) {
      const rates = await quoteShipping(ctx, "rates-keys", address);
      expect(rates.length).toBeGreaterThan(0);
      for (const rate of rates) {
        const input = processOrderSchema.parse({ customerInfo: { ...customer, ...address }, shippingMethod: rate.key });
        const { orderSummary } = await processOrder(ctx, {
          sessionId: "rates-keys",
          customer: input.customerInfo,
          shippingMethod: input.shippingMethod,
        });
        const order = await ctx.db
          .selectFrom("orders")
          .select(["shippingMethod", "shippingCents"])
          .where("id", "=", orderSummary.orderId)
          .executeTakeFirstOrThrow();
        expect(order).toEqual({ shippingMethod: rate.key, shippingCents: rate.costCents });
      }
    }
  });

  it("gives no rates for an address no carrier serves, and Process Order refuses it", async () => {
    await bag("rates-none", capId, 1);
    const nowhere = {
      street: "1 Nowhere Rd",
      city: "Nowhere",
      state: "NY",
      zipCode: SHIPPO_TEST_ADDRESSES.undeliverableZip,
      country: "US",
    };
    expect(await quoteShipping(ctx, "rates-none", nowhere)).toEqual([]);
    await expect(
      processOrder(ctx, { sessionId: "rates-none", customer: { ...customer, ...nowhere }, shippingMethod: "usps-usps_ground_advantage" }),
    ).rejects.toThrow(CHECKOUT_MESSAGES.noRatesAtSubmit);
  });

  it("treats Shippo's 400 for an unusable address as no rates", async () => {
    const shipping = shippingFor(ctx);
    expect(shipping.mode).toBe("shippo");
    // No country: the SDK lets it through (we send ""), Shippo answers 400 with the field's errors.
    expect(
      await shipping.quote(
        { street: "1 Main St", city: "Albany", state: "NY", zipCode: "12207", country: "" },
        { weightLbs: 1, lengthIn: 12, widthIn: 9, heightIn: 6 },
      ),
    ).toEqual([]);
  });

  it("reads the ship-from address from SHIP_FROM_* with a New York default", () => {
    expect(shipFromAddress({})).toMatchObject({ city: "Brooklyn", state: "NY", zip: "11232", country: "US" });
    expect(
      shipFromAddress({
        SHIP_FROM_NAME: "Depot",
        SHIP_FROM_STREET: "5 Dock Rd",
        SHIP_FROM_CITY: "Newark",
        SHIP_FROM_STATE: "NJ",
        SHIP_FROM_ZIP: "07114",
        SHIP_FROM_PHONE: "+1 973 555 0100",
        SHIP_FROM_EMAIL: "depot@example.com",
      }),
    ).toEqual({
      name: "Depot",
      street1: "5 Dock Rd",
      city: "Newark",
      state: "NJ",
      zip: "07114",
      country: "US",
      phone: "+1 973 555 0100",
      email: "depot@example.com",
    });
  });
});

describe("Shippo labels", () => {
  it("buys the chosen rate's label when an order is paid and records it", async () => {
    const { outcome, orderId } = await paidOrder("label-1");
    expect(outcome).toMatchObject({ status: "paid", firstTime: true });

    const [transaction] = shippoState.transactionRequests();
    // The order for a person reading Shippo, then the label row's idempotency key (decision 0038).
    const { idempotencyKey } = await ctx.db
      .selectFrom("shippingLabels")
      .select("idempotencyKey")
      .where("orderId", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(transaction).toMatchObject({ label_file_type: "PDF_4x6", async: false, metadata: `Order ${orderId} ${idempotencyKey}` });
    // The rate comes from a fresh quote at label time, for the method the buyer chose.
    const bought = shippoState.rates.get(transaction!.rate as string);
    expect(bought?.rate).toMatchObject({ provider: "USPS", servicelevel: { token: "usps_ground_advantage" } });
    expect(bought?.shipment).toBe([...shippoState.shipments.values()].at(-1));

    const labels = await ctx.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", orderId).execute();
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({ status: "created", carrier: "USPS", costCents: 615, errorMessage: null });
    expect(labels[0]!.trackingNumber).toMatch(/^9400\d{18}$/);
    expect(labels[0]!.labelUrl).toMatch(/^https:\/\/deliver\.goshippo\.com\/[0-9a-f]{32}\.pdf\?/);
    const order = await ctx.db
      .selectFrom("orders")
      .select(["shippingMethod", "shippingCents"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({ shippingMethod: "usps-usps_ground_advantage", shippingCents: 615 });
  });

  it("records a label Shippo refuses as failed with Shippo's message; the order stays paid", async () => {
    const { outcome, orderId } = await paidOrder("label-error", { street: SHIPPO_TEST_ADDRESSES.labelErrorStreet });
    expect(outcome).toMatchObject({ status: "paid", firstTime: true });
    expect(shippoState.transactionRequests()).toHaveLength(1);
    const labels = await ctx.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", orderId).execute();
    expect(labels).toEqual([
      expect.objectContaining({
        status: "failed",
        errorMessage: SHIPPO_LABEL_ERROR_MESSAGE,
        carrier: "USPS",
        labelUrl: "",
        trackingNumber: "",
      }),
    ]);
    const order = await ctx.db.selectFrom("orders").select(["status", "paidAt"]).where("id", "=", orderId).executeTakeFirstOrThrow();
    expect(order.status).toBe("processing");
    expect(order.paidAt).not.toBeNull();
    expect(
      await ctx.db
        .selectFrom("mailMessages")
        .select("id")
        .where("toAddress", "=", customer.email)
        .where("subject", "like", `%#${outcome.orderNumber}%`)
        .execute(),
    ).toHaveLength(1);
  });
});

describe("international labels", () => {
  it("travel with a customs declaration of what is inside, its weight and value, signed by the sender", async () => {
    const sessionId = "label-abroad";
    await bag(sessionId, capId, 2);
    const london = { street: "10 Downing St", city: "London", state: "", zipCode: "SW1A 2AA", country: "GB" };
    const order = await processOrder(ctx, {
      sessionId,
      customer: { ...customer, ...london },
      shippingMethod: "usps-usps_priority_mail_international",
    });
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
    expect(await confirmPayment(ctx, order.paymentIntentId)).toMatchObject({ status: "paid", firstTime: true });
    await runFulfilmentJob(ctx);

    // Quoting at checkout needs no declaration; buying the label does.
    const shipments = shippoState.shipmentRequests();
    expect(shipments[0]!.customs_declaration).toBeUndefined();
    expect(shipments.at(-1)!.customs_declaration).toEqual({
      certify: true,
      certify_signer: ctx.config.shippo.from.name,
      contents_type: "MERCHANDISE",
      non_delivery_option: "RETURN",
      incoterm: "DDU",
      items: [
        {
          description: "Cap",
          quantity: 2,
          net_weight: "1",
          mass_unit: "lb",
          value_amount: "60.00",
          value_currency: "USD",
          origin_country: "US",
        },
      ],
    });
    const labels = await ctx.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", order.orderSummary.orderId).execute();
    expect(labels).toEqual([expect.objectContaining({ status: "created", carrier: "USPS", errorMessage: null })]);
  });

  it("fail without one, as Shippo refuses them (the mock holds Shippo to it)", async () => {
    const provider = shippingFor(ctx);
    const to = { name: "Ada", street: "10 Downing St", city: "London", state: "", zipCode: "SW1A 2AA", country: "GB" };
    const parcel = { weightLbs: 1, lengthIn: 8, widthIn: 8, heightIn: 5 };
    await expect(provider.buyLabel({ orderId: 1, to, parcel, methodKey: "usps-usps_priority_mail_international" })).rejects.toThrow(
      SHIPPO_CUSTOMS_REQUIRED_MESSAGE,
    );
  });
});

describe("the admin's shipping test", () => {
  it("buys a Shippo test label and answers with the spec's shape", async () => {
    const result = await testShippingLabel(ctx);
    expect(result).toEqual({
      message: expect.stringContaining("Shippo test label"),
      details: {
        trackingNumber: expect.stringMatching(/^9400\d{18}$/),
        carrier: "USPS",
        cost: 5.45,
        labelUrl: expect.stringMatching(/^https:\/\/deliver\.goshippo\.com\//),
      },
    });
    expect(shippoState.shipmentRequests()[0]).toMatchObject({
      address_to: { street1: "215 Clayton St", zip: "94117", country: "US" },
      parcels: [{ weight: "1", mass_unit: "lb", length: "12", width: "9", height: "6", distance_unit: "in" }],
    });
  });

  it("generates a local PDF label without Shippo", async () => {
    const result = await testShippingLabel(localCtx);
    expect(result).toEqual({
      message: expect.stringContaining("Local test label"),
      details: {
        trackingNumber: expect.stringMatching(/^LOCAL/),
        carrier: "USPS",
        cost: 5.95,
        labelUrl: expect.stringMatching(/^\/api\/admin\/labels\/0-[0-9a-f]+\.pdf$/),
      },
    });
    // Kept outside the public uploads: the label carries the customer's address.
    const file = path.join(localCtx.config.dataDir, "labels", path.basename(result.details.labelUrl));
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");
    expect(shippoState.requests).toEqual([]);
  });

  it("refuses a live Shippo token rather than paying for postage", async () => {
    await expect(testShippingLabel(liveCtx)).rejects.toThrow("Use a Shippo test token");
    expect(shippoState.requests).toEqual([]);
  });
});

// Issue 23: the local label's second page is a packing slip naming each line's size and colour,
// from an order placed and paid the way checkout makes one and labelled by the fulfilment job.
import fs from "node:fs/promises";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import type { AdminProduct } from "#server/contracts/admin-products";
import { payLocalIntent } from "#server/integrations/payments/local";
import { renderLabelPdf } from "#server/integrations/shipping/label-pdf";
import { labelsDir } from "#server/integrations/shipping/local";
import { packingSlipRows } from "#server/integrations/shipping/packing-slip";
import type { PackingSlip } from "#server/integrations/shipping/types";
import { ensureAdmin } from "#server/services/accounts/users";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { pdfPageTexts } from "../setup/pdf-text";
import { runFulfilmentJob } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "packer", password: "packer-password", email: "packer@example.com" });
  await api("POST", "/api/login", { body: { username: "packer", password: "packer-password" }, jar: admin });
});

async function create(body: Record<string, unknown>): Promise<AdminProduct> {
  const response = await api("POST", "/api/admin/products", { jar: admin, body: { description: "A piece to pack.", price: 30, ...body } });
  expect(response.status).toBe(201);
  return (await response.json()) as AdminProduct;
}

const label = {
  orderId: 7,
  to: { name: "Pat Packer", street: "1 Box St", city: "Albany", state: "NY", zipCode: "12207", country: "US" },
  parcel: { weightLbs: 1, lengthIn: 12, widthIn: 9, heightIn: 2 },
  carrier: "USPS",
  service: "Ground Advantage",
  trackingNumber: "LOCAL0000071234",
};

describe("the packing slip", () => {
  it("has a row per line: quantity, name and the size and colour as the store writes them", () => {
    expect(
      packingSlipRows({
        orderNumber: "AB12CD34",
        lines: [
          { name: "Sized Tee", size: "M", color: "Navy", quantity: 2 },
          { name: "Cap", size: null, color: "Red", quantity: 1 },
          { name: "Sticker", size: null, color: null, quantity: 3 },
        ],
      }),
    ).toEqual({
      rows: [
        { quantity: "2 x", name: "Sized Tee", choice: "Size M · Navy" },
        { quantity: "1 x", name: "Cap", choice: "Red" },
        { quantity: "3 x", name: "Sticker", choice: "" },
      ],
      pieces: 6,
    });
  });

  it("follows the label on its own pages, long names cut to the page and characters the font lacks as ?", async () => {
    const lines: PackingSlip["lines"] = Array.from({ length: 12 }, (_, i) => ({
      name: `Tee ${i + 1}`,
      size: "L",
      color: "Black",
      quantity: 1,
    }));
    lines[0] = { name: `Café Tee ${"with a very long name ".repeat(4)}`, size: "XS", color: "Heather Oat", quantity: 2 };
    lines[1] = { name: "Snow ☃ Hoodie", size: null, color: null, quantity: 1 };
    const pages = await pdfPageTexts(await renderLabelPdf({ ...label, packingSlip: { orderNumber: "AB12CD34", lines } }));
    expect(pages).toHaveLength(3);
    expect(pages[0]).toContain("Order #7");
    expect(pages[1]!.slice(0, 7)).toEqual([
      "PACKING SLIP (1 of 2)",
      "Order #AB12CD34",
      "2 x",
      "Café Tee with a very long name with a very lo...",
      "Size XS · Heather Oat",
      "1 x",
      "Snow ? Hoodie",
    ]);
    // Ten rows a page: the last two on the next one, and the count of pieces at the end.
    expect(pages[2]).toEqual([
      "PACKING SLIP (2 of 2)",
      "Order #AB12CD34",
      "1 x",
      "Tee 11",
      "Size L · Black",
      "1 x",
      "Tee 12",
      "Size L · Black",
      "13 pieces in this box",
    ]);
  });

  it("is left out when there is nothing to list (the admin's shipping test)", async () => {
    expect(await pdfPageTexts(await renderLabelPdf(label))).toHaveLength(1);
  });

  // Two sizes of one product in one order: two holds of the product (migration 0026).
  it("is printed with the order's label: its number and each line's size and colour", async () => {
    const tee = await create({
      name: "Slip Tee",
      availableColors: ["Black", "Navy"],
      sizes: [
        { label: "S", inventory: 4 },
        { label: "M", inventory: 4 },
      ],
    });
    const cap = await create({ name: "Slip Cap", inventory: 5 });
    const jar = new CookieJar();
    expect((await api("POST", "/api/cart", { jar, body: { productId: tee.id, quantity: 2, size: "M", color: "Navy" } })).status).toBe(201);
    expect((await api("POST", "/api/cart", { jar, body: { productId: tee.id, quantity: 1, size: "S" } })).status).toBe(201);
    expect((await api("POST", "/api/cart", { jar, body: { productId: cap.id, quantity: 1 } })).status).toBe(201);
    const { sessionId } = await ctx.db
      .selectFrom("cartItems")
      .select("sessionId")
      .where("productId", "=", cap.id)
      .executeTakeFirstOrThrow();
    const customer = {
      email: "slip@example.com",
      name: "Sam Slip",
      phone: "",
      street: "2 Box St",
      city: "Albany",
      state: "NY",
      zipCode: "12207",
      country: "US",
    };
    const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
    await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
    await confirmPayment(ctx, order.paymentIntentId);
    await runFulfilmentJob(ctx);
    const row = await ctx.db
      .selectFrom("shippingLabels")
      .select(["labelUrl", "status"])
      .where("orderId", "=", order.orderSummary.orderId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("created");
    const pdf = await fs.readFile(path.join(labelsDir(ctx), path.basename(row.labelUrl!)));
    const pages = await pdfPageTexts(pdf);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toEqual([
      "PACKING SLIP",
      `Order #${order.paymentIntentId.slice(-8).toUpperCase()}`,
      "2 x",
      "Slip Tee",
      "Size M · Navy",
      "1 x",
      "Slip Tee",
      "Size S · Black",
      "1 x",
      "Slip Cap",
      "4 pieces in this box",
    ]);
  });
});

describe("GET /api/admin/orders/{id}/packing-slip", () => {
  it("gives an admin any order's slip as a PDF, whichever carrier labelled it; strangers and unknown orders get nothing", async () => {
    const tee = await create({ name: "Own Slip Tee", sizes: [{ label: "L", inventory: 3 }] });
    const jar = new CookieJar();
    expect((await api("POST", "/api/cart", { jar, body: { productId: tee.id, quantity: 2, size: "L" } })).status).toBe(201);
    const { sessionId } = await ctx.db
      .selectFrom("cartItems")
      .select("sessionId")
      .where("productId", "=", tee.id)
      .executeTakeFirstOrThrow();
    const customer = {
      email: "own@example.com",
      name: "Olu Own",
      phone: "",
      street: "3 Box St",
      city: "Albany",
      state: "NY",
      zipCode: "12207",
      country: "US",
    };
    const order = await processOrder(ctx, { sessionId, customer, shippingMethod: "usps-ground_saver" });
    const orderNumber = order.paymentIntentId.slice(-8).toUpperCase();
    const path = `/api/admin/orders/${order.orderSummary.orderId}/packing-slip`;

    const slip = await api("GET", path, { jar: admin });
    expect(slip.status).toBe(200);
    expect(slip.headers.get("Content-Type")).toBe("application/pdf");
    expect(slip.headers.get("Content-Disposition")).toBe(`inline; filename="packing-slip-${orderNumber}.pdf"`);
    expect(await pdfPageTexts(new Uint8Array(await slip.arrayBuffer()))).toEqual([
      ["PACKING SLIP", `Order #${orderNumber}`, "2 x", "Own Slip Tee", "Size L", "2 pieces in this box"],
    ]);

    expect((await api("GET", path)).status).toBe(401);
    expect((await api("GET", path, { jar })).status).toBe(401);
    const unknown = await api("GET", "/api/admin/orders/999999/packing-slip", { jar: admin });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "Order not found.", errors: {} });
  });
});

// Issue 23: the drop report and its CSV say which sizes and colours sold, line by line, from
// orders placed and paid the way checkout makes them (bag → process-order → local card → confirm).
// The local card makes test orders, so the report is asked to count them (includeTest=1).
import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import type { AdminProduct } from "#server/contracts/admin-products";
import { payLocalIntent } from "#server/integrations/payments/local";
import { ensureAdmin } from "#server/services/accounts/users";
import { processOrder } from "#server/services/checkout/checkout";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { saveCountdown } from "#server/services/drop/drops";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();
const admin = new CookieJar();
const T0 = Date.parse("2026-07-01T18:00:00.000Z");
const at = (offsetMs: number) => new Date(T0 + offsetMs).toISOString();
const S = 1000;
let n = 0;
let tee: AdminProduct;
let hoodie: AdminProduct;
let dropId: number;

async function create(body: Record<string, unknown>): Promise<AdminProduct> {
  const response = await api("POST", "/api/admin/products", { jar: admin, body: { description: "A piece for the drop.", ...body } });
  expect(response.status).toBe(201);
  return (await response.json()) as AdminProduct;
}

/** A paid order of these lines, bagged through POST /api/cart as a shopper's browser does. */
async function paidOrder(placedAt: string, lines: { productId: number; quantity: number; size: string; color?: string }[]) {
  const jar = new CookieJar();
  // Bagged the day before, out of the waiting room's way; placed and paid at `placedAt`.
  ctx.clock.set(at(-24 * 60 * 60 * S));
  for (const line of lines) expect((await api("POST", "/api/cart", { jar, body: line })).status).toBeLessThan(300);
  const session = (
    await ctx.db
      .selectFrom("cartItems")
      .select("sessionId")
      .where("productId", "=", lines[0]!.productId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow()
  ).sessionId;
  const customer = {
    email: `drop${++n}@example.com`,
    name: "Drop Shopper",
    phone: "",
    street: `${n} Drop Street`,
    city: "Albany",
    state: "NY",
    zipCode: "12207",
    country: "US",
  };
  ctx.clock.set(placedAt);
  const order = await processOrder(ctx, { sessionId: session, customer, shippingMethod: "usps-ground_saver" });
  await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242424242424242" });
  expect((await confirmPayment(ctx, order.paymentIntentId)).status).toBe("paid");
}

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "dropper", password: "dropper-password", email: "dropper@example.com" });
  await api("POST", "/api/login", { body: { username: "dropper", password: "dropper-password" }, jar: admin });
  ctx.clock.set(at(-3 * 24 * 60 * 60 * S));
  await saveCountdown(ctx, at(0));
  tee = await create({
    name: "Sized Drop Tee",
    price: 40,
    availableColors: ["Black", "Navy"],
    sizes: [
      { label: "S", inventory: 2 },
      { label: "M", inventory: 3 },
      { label: "L", inventory: 1 },
    ],
  });
  hoodie = await create({
    name: "Grid Drop Hoodie",
    price: 100,
    availableColors: ["Black", "White"],
    sizes: [{ label: "M" }],
    stockPerColor: true,
    variants: [
      { size: "M", color: "Black", inventory: 1 },
      { size: "M", color: "White", inventory: 2 },
    ],
  });
  await paidOrder(at(30 * S), [
    { productId: tee.id, quantity: 2, size: "M", color: "Navy" },
    { productId: hoodie.id, quantity: 1, size: "M", color: "Black" },
  ]);
  // No colour named: the line gets the first available one, Black.
  await paidOrder(at(90 * S), [{ productId: tee.id, quantity: 1, size: "S" }]);
  ctx.clock.set(at(2 * 60 * 60 * S));
  dropId = (await ctx.db.selectFrom("drops").select("id").where("countdownAt", "=", at(0)).executeTakeFirstOrThrow()).id;
});

describe("the drop report per size and colour", () => {
  it("GET /api/admin/drops/:id gives each product's variants: units, revenue and what is left of each", async () => {
    const response = await api("GET", `/api/admin/drops/${dropId}?includeTest=1`, { jar: admin });
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report.totals).toEqual({ orders: 2, units: 4, revenue: 220 });
    expect(report.products).toEqual([
      {
        productId: tee.id,
        name: "Sized Drop Tee",
        units: 3,
        revenue: 120,
        left: 3,
        soldOutAt: null,
        sellOutSeconds: null,
        variants: [
          { size: "S", color: "Black", units: 1, revenue: 40, left: 1 },
          { size: "M", color: "Navy", units: 2, revenue: 80, left: 1 },
        ],
      },
      {
        productId: hoodie.id,
        name: "Grid Drop Hoodie",
        units: 1,
        revenue: 100,
        left: 2,
        soldOutAt: null,
        sellOutSeconds: null,
        variants: [{ size: "M", color: "Black", units: 1, revenue: 100, left: 0 }],
      },
    ]);
  });

  it("GET /api/admin/drops/:id.csv has a variant row under each product, the header and other rows as before", async () => {
    const response = await api("GET", `/api/admin/drops/${dropId}.csv?includeTest=1`, { jar: admin });
    expect(response.status).toBe(200);
    const lines = (await response.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines.slice(0, 11)).toEqual([
      "section,label,units,revenue,value",
      "drop,T-0,,,2026-07-01T18:00:00.000Z",
      "drop,Window,,,2026-07-01T17:00:00.000Z/2026-07-02T18:00:00.000Z",
      "drop,Test orders,,,included",
      "totals,Paid orders,4,220.00,2",
      "product,Sized Drop Tee,3,120.00,not sold out",
      "variant,Sized Drop Tee · Size S · Black,1,40.00,1",
      "variant,Sized Drop Tee · Size M · Navy,2,80.00,1",
      "product,Grid Drop Hoodie,1,100.00,not sold out",
      "variant,Grid Drop Hoodie · Size M · Black,1,100.00,0",
      "minute,Before T-0,0,0.00,",
    ]);
    expect(lines.slice(11, 13)).toEqual(["minute,T+0,3,180.00,", "minute,T+1,1,40.00,"]);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import * as cartPage from "#app/routes/cart";
import * as checkoutPage from "#app/routes/checkout";
import * as productPage from "#app/routes/store.$productId";
import { useAppContextForTests } from "#server/boot";
import { cookiesFor } from "#server/http/requests/cookies";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

// Issue 12 part 4: the cart's and checkout's honeypot (decision 0020).
const ctx = createTestContext();
beforeAll(() => useAppContextForTests(ctx));

const REFUSAL = "We couldn't process this request. Please try again.";
const customerInfo = {
  email: "bee@example.com",
  name: "Bee Buyer",
  phone: "",
  street: "5 Elm St",
  city: "Austin",
  state: "TX",
  zipCode: "73301",
  country: "US",
};

const linesOf = (productId: number) => ctx.db.selectFrom("cartItems").select("quantity").where("productId", "=", productId).execute();
const ordersCount = async () => (await ctx.db.selectFrom("orders").select("id").execute()).length;
const stockOf = async (id: number) =>
  (await ctx.db.selectFrom("products").select("inventory").where("id", "=", id).executeTakeFirstOrThrow()).inventory;
const rateLimitRows = async () => (await ctx.db.selectFrom("rateLimits").select("key").execute()).length;

async function flashOf(headers: Headers) {
  const cookie = headers.getSetCookie().find((c) => c.startsWith("flash="));
  return cookie ? ((await cookiesFor(ctx.config, new Request("http://localhost/")).flash.parse(cookie.split(";")[0]!)) as unknown) : null;
}

async function bagWith(productId: number) {
  const jar = new CookieJar();
  expect((await api("POST", "/api/cart", { body: { productId }, jar })).status).toBe(201);
  return jar;
}

describe("REST: unaffected unless the field is sent", () => {
  it("POST /api/cart with the field filled: 400, no bag cookie, no line; empty or absent adds as before", async () => {
    const id = await addProduct(ctx, { inventory: 5 });
    const bot = new CookieJar();
    const refused = await api("POST", "/api/cart", { body: { productId: id, website: "http://spam.example" }, jar: bot });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: REFUSAL, errors: {} });
    expect(bot.has("cart")).toBe(false);
    expect(await linesOf(id)).toEqual([]);

    expect((await api("POST", "/api/cart", { body: { productId: id, website: "" }, jar: new CookieJar() })).status).toBe(201);
    expect((await api("POST", "/api/cart", { body: { productId: id }, jar: new CookieJar() })).status).toBe(201);
  });

  it("POST /api/process-order with the field filled: 400, no order, stock and rate limits untouched", async () => {
    const id = await addProduct(ctx, { inventory: 3 });
    const jar = await bagWith(id);
    const [orders, limits] = [await ordersCount(), await rateLimitRows()];
    const body = { customerInfo, shippingMethod: "usps-ground_saver", shippingCost: 5.95 };
    const refused = await api("POST", "/api/process-order", { jar, body: { ...body, website: "x" } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe(REFUSAL);
    expect(await ordersCount()).toBe(orders);
    expect(await rateLimitRows()).toBe(limits);
    expect(await stockOf(id)).toBe(3);

    const placed = await api("POST", "/api/process-order", { jar, body: { ...body, website: "" } });
    expect(placed.status).toBe(201);
    expect(await stockOf(id)).toBe(2);
  });
});

describe("the page forms, without JavaScript and with it (a fetcher)", () => {
  it("Add To Bag with the field filled redirects back with the refusal and creates no bag", async () => {
    const id = await addProduct(ctx, { inventory: 5 });
    const jar = new CookieJar();
    const plain = await runRoute(productPage.action, {
      path: `/store/${id}`,
      form: { website: "x" },
      params: { productId: String(id) },
      jar,
    });
    expect(plain.status).toBe(302);
    expect(await flashOf(plain.headers)).toMatchObject({ kind: "error", description: REFUSAL });
    expect(jar.has("cart")).toBe(false);

    const fetcher = await runRoute(productPage.action, {
      path: `/store/${id}`,
      form: { website: "x", enhanced: "1" },
      params: { productId: String(id) },
    });
    expect(fetcher.status).toBe(400);
    expect(fetcher.data).toEqual({ ok: false, notice: { kind: "error", title: "Error", description: REFUSAL } });
    expect(await linesOf(id)).toEqual([]);
  });

  it("the bag's plus, minus and remove with the field filled change nothing", async () => {
    const id = await addProduct(ctx, { inventory: 5 });
    const jar = await bagWith(id);
    for (const intent of ["increment", "decrement", "remove"]) {
      const result = await runRoute(cartPage.action, { path: "/cart", form: { intent, productId: String(id), website: "x" }, jar });
      expect(result.status).toBe(302);
      expect(await flashOf(result.headers)).toMatchObject({ kind: "error", description: REFUSAL });
    }
    expect(await linesOf(id)).toEqual([{ quantity: 1 }]);
  });

  it("Process Order on the no-JavaScript checkout with the field filled: 400, the form kept, no order", async () => {
    const id = await addProduct(ctx, { inventory: 3 });
    const jar = await bagWith(id);
    const orders = await ordersCount();
    const result = await runRoute<{ notice: { description: string }; values: { email: string } }>(checkoutPage.action, {
      path: "/checkout",
      form: { intent: "process", ...customerInfo, shippingMethod: "usps-ground_saver", website: "x" },
      jar,
    });
    expect(result.status).toBe(400);
    expect(result.data.notice.description).toBe(REFUSAL);
    expect(result.data.values.email).toBe("bee@example.com");
    expect(await ordersCount()).toBe(orders);
    expect(await stockOf(id)).toBe(3);
  });
});

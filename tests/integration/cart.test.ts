import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as cartPage from "#app/routes/cart";
import * as productPage from "#app/routes/store.$productId";
import type { CartPageView, CartView } from "#server/contracts/cart";
import { useAppContextForTests } from "#server/boot";
import { Conflict, NotFound } from "#server/errors";
import { cookiesFor } from "#server/http/requests/cookies";
import { addToCart, decrementItem, getCart, incrementItem, setQuantity } from "#server/services/cart/cart";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

const ctx = createTestContext();
beforeAll(() => useAppContextForTests(ctx));
beforeEach(() => ctx.clock.set("2026-06-01T12:00:00.000Z"));

const post = (body: unknown, jar = new CookieJar()) => api("POST", "/api/cart", { body, jar });
const get = (jar: CookieJar) => api("GET", "/api/cart", { jar });
const patch = (productId: number | string, body: unknown, jar: CookieJar) => api("PATCH", `/api/cart/${productId}`, { body, jar });
const del = (productId: number | string, jar: CookieJar) => api("DELETE", `/api/cart/${productId}`, { jar });

async function expectError(response: Response, status: number, message: string) {
  expect(response.status).toBe(status);
  expect((await response.json()).message).toBe(message);
}

const linesInDb = (productId: number) =>
  ctx.db.selectFrom("cartItems").select(["sessionId", "quantity"]).where("productId", "=", productId).execute();

describe("POST /api/cart", () => {
  it("creates the bag with a signed HttpOnly cookie, answers 201 with the cart, then 200 for more of the same", async () => {
    const id = await addProduct(ctx, { name: "Heavyweight Tee", priceCents: 3800 });
    const jar = new CookieJar();
    const first = await post({ productId: id, quantity: 1 }, jar);
    expect(first.status).toBe(201);
    expect(first.headers.get("Set-Cookie")).toMatch(/^cart=.+HttpOnly.*SameSite=Lax/i);
    const cart = (await first.json()) as CartView;
    expect(cart).toEqual({
      cartItems: [
        {
          id: expect.any(Number),
          productId: id,
          // A product without sizes and colours: a line with neither (decision 0045).
          size: null,
          color: null,
          quantity: 1,
          product: expect.objectContaining({
            name: "Heavyweight Tee",
            price: 38,
            discountPercent: 0,
            isVisible: true,
            isComingSoon: false,
          }),
          unitPrice: 38,
          lineTotal: 38,
          available: true,
          notice: null,
        },
      ],
      totalPrice: 38,
      count: 1,
    });

    const second = await post({ productId: id, quantity: 2 }, jar);
    expect(second.status).toBe(200);
    expect(second.headers.get("Set-Cookie")).toBeNull();
    expect(((await second.json()) as CartView).cartItems[0]?.quantity).toBe(3);
    expect(await linesInDb(id)).toEqual([{ sessionId: expect.any(String), quantity: 3 }]);
  });

  it("defaults the quantity to 1 and accepts the numbers a form would send as text", async () => {
    const id = await addProduct(ctx, {});
    const jar = new CookieJar();
    expect(((await (await post({ productId: id }, jar)).json()) as CartView).count).toBe(1);
    expect(((await (await post({ productId: String(id), quantity: "2" }, jar)).json()) as CartView).count).toBe(3);
  });

  it.each([
    [0, "Quantity must be a whole number of at least 1"],
    [-1, "Quantity must be a whole number of at least 1"],
    [1.5, "Quantity must be a whole number of at least 1"],
    ["abc", "Quantity must be a whole number of at least 1"],
    ["", "Quantity must be a whole number of at least 1"],
    [null, "Quantity must be a whole number of at least 1"],
  ])("refuses quantity %j with 400 and writes nothing", async (quantity, message) => {
    const id = await addProduct(ctx, {});
    const response = await post({ productId: id, quantity });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message, errors: { quantity: [message] } });
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(await linesInDb(id)).toEqual([]);
  });

  it("refuses a missing or malformed product id with 400, and a body that is not JSON", async () => {
    await expectError(await post({ quantity: 1 }), 400, "Product id must be a positive whole number");
    await expectError(await post({ productId: "seven" }), 400, "Product id must be a positive whole number");
    await expectError(await post({ productId: -4 }), 400, "Product id must be a positive whole number");
    await expectError(await post("{oops"), 400, "The request body must be valid JSON.");
  });

  it("answers 404 for unknown and hidden products, and 404 for a countdown-restricted one until its release", async () => {
    await expectError(await post({ productId: 987_654 }), 404, "Product not found.");
    const hidden = await addProduct(ctx, { isVisible: 0 });
    await expectError(await post({ productId: hidden }), 404, "Product not found.");
    const restricted = await addProduct(ctx, { isCountdownRestricted: 1, countdownReleaseDate: "2026-06-02T00:00:00.000Z" });
    await expectError(await post({ productId: restricted }), 404, "Product not found.");
    expect(await linesInDb(restricted)).toEqual([]);
    ctx.clock.set("2026-06-02T00:00:00.000Z");
    expect((await post({ productId: restricted })).status).toBe(201);
  });

  it("refuses coming-soon and sold-out products with 409 and the shopper's message", async () => {
    const soon = await addProduct(ctx, { isComingSoon: 1, releaseDate: "2026-07-01" });
    await expectError(await post({ productId: soon }), 409, "This product is coming soon and can't be added to the bag yet.");
    const soldOut = await addProduct(ctx, { inventory: 0 });
    await expectError(await post({ productId: soldOut }), 409, "This product is sold out.");
    expect([...(await linesInDb(soon)), ...(await linesInDb(soldOut))]).toEqual([]);
  });

  it("never puts more in the bag than the stock: 409 'Only N left in stock.' and the line stays as it was", async () => {
    const id = await addProduct(ctx, { inventory: 3 });
    const jar = new CookieJar();
    await expectError(await post({ productId: id, quantity: 4 }, jar), 409, "Only 3 left in stock.");
    expect((await post({ productId: id, quantity: 2 }, jar)).status).toBe(201);
    await expectError(await post({ productId: id, quantity: 2 }, jar), 409, "Only 3 left in stock.");
    expect(await linesInDb(id)).toEqual([{ sessionId: expect.any(String), quantity: 2 }]);
    expect((await post({ productId: id, quantity: 1 }, jar)).status).toBe(200);
    expect(await linesInDb(id)).toEqual([{ sessionId: expect.any(String), quantity: 3 }]);
  });

  it("holds the cap when twenty adds race for five units", async () => {
    const id = await addProduct(ctx, { inventory: 5 });
    const session = "race-session-0000000001";
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => addToCart(ctx, session, id, 1)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(Conflict);
      expect((r.reason as Error).message).toBe("Only 5 left in stock.");
    }
    expect((await getCart(ctx, session)).count).toBe(5);
  });
});

describe("GET /api/cart", () => {
  it("answers an empty cart, and sets no cookie, for a browser without a bag", async () => {
    const response = await get(new CookieJar());
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(response.headers.get("Cache-Control")).toMatch(/no-store/);
    expect(await response.json()).toEqual({ cartItems: [], totalPrice: 0, count: 0 });
  });

  it("rounds each discounted unit price to the cent once, then multiplies", async () => {
    // 19.99 at 15% off = 16.9915 → 16.99 a unit; four are 67.96 (rounding the total would give 67.97).
    const discounted = await addProduct(ctx, { priceCents: 1999, discountPercent: 15 });
    const plain = await addProduct(ctx, { priceCents: 4500 });
    const jar = new CookieJar();
    await post({ productId: discounted, quantity: 4 }, jar);
    await post({ productId: plain, quantity: 1 }, jar);
    const cart = (await (await get(jar)).json()) as CartView;
    expect(cart.cartItems.map((l) => [l.unitPrice, l.lineTotal])).toEqual([
      [16.99, 67.96],
      [45, 45],
    ]);
    expect(cart.cartItems[0]?.product).toMatchObject({ price: 19.99, discountedPrice: 16.99, discountPercent: 15 });
    expect(cart.totalPrice).toBe(112.96);
    expect(cart.count).toBe(5);
  });

  it("keeps a bag private to its cookie: another browser sees its own", async () => {
    const id = await addProduct(ctx, {});
    const mine = new CookieJar();
    await post({ productId: id }, mine);
    expect(((await (await get(new CookieJar())).json()) as CartView).count).toBe(0);
  });

  it("shows a line whose product sold out or turned coming soon with a note, outside the total", async () => {
    const soldOut = await addProduct(ctx, { priceCents: 1000 });
    const soon = await addProduct(ctx, { priceCents: 2000 });
    const shrinking = await addProduct(ctx, { priceCents: 500, inventory: 5 });
    const fine = await addProduct(ctx, { priceCents: 3000 });
    const jar = new CookieJar();
    for (const [productId, quantity] of [
      [soldOut, 1],
      [soon, 1],
      [shrinking, 4],
      [fine, 1],
    ] as const)
      await post({ productId, quantity }, jar);
    await ctx.db.updateTable("products").set({ inventory: 0 }).where("id", "=", soldOut).execute();
    await ctx.db.updateTable("products").set({ isComingSoon: 1 }).where("id", "=", soon).execute();
    await ctx.db.updateTable("products").set({ inventory: 2 }).where("id", "=", shrinking).execute();
    const cart = (await (await get(jar)).json()) as CartView;
    expect(cart.cartItems.map((l) => [l.available, l.notice])).toEqual([
      [false, "This product is sold out."],
      [false, "Coming soon: this item can't be bought yet."],
      [false, "Only 2 left in stock."],
      [true, null],
    ]);
    expect(cart.totalPrice).toBe(30);
    expect(cart.count).toBe(7);
  });

  it("leaves out lines whose product was hidden or put back behind a countdown, and brings them back after", async () => {
    const hidden = await addProduct(ctx, { name: "Soon Hidden Jacket", priceCents: 9000 });
    const keep = await addProduct(ctx, { priceCents: 1000 });
    const jar = new CookieJar();
    await post({ productId: hidden }, jar);
    await post({ productId: keep }, jar);
    await ctx.db.updateTable("products").set({ isVisible: 0 }).where("id", "=", hidden).execute();
    const text = await (await get(jar)).text();
    expect(text).not.toContain("Soon Hidden Jacket");
    expect(JSON.parse(text)).toMatchObject({ totalPrice: 10, count: 1 });
    await ctx.db
      .updateTable("products")
      .set({ isVisible: 1, isCountdownRestricted: 1, countdownReleaseDate: "2026-06-03T00:00:00.000Z" })
      .where("id", "=", hidden)
      .execute();
    expect(await (await get(jar)).text()).not.toContain("Soon Hidden Jacket");
    ctx.clock.set("2026-06-03T00:00:00.000Z");
    expect(((await (await get(jar)).json()) as CartView).count).toBe(2);
  });
});

describe("PATCH /api/cart/{productId}", () => {
  async function bagWith(quantity: number, inventory = 10) {
    const id = await addProduct(ctx, { inventory });
    const jar = new CookieJar();
    await post({ productId: id, quantity }, jar);
    return { id, jar };
  }

  it("sets the quantity and answers with the cart", async () => {
    const { id, jar } = await bagWith(1);
    const response = await patch(id, { quantity: 4 }, jar);
    expect(response.status).toBe(200);
    expect(((await response.json()) as CartView).cartItems[0]?.quantity).toBe(4);
    expect((await linesInDb(id))[0]?.quantity).toBe(4);
  });

  it.each([0, -2])("removes the line when the quantity goes below 1 (%d)", async (quantity) => {
    const { id, jar } = await bagWith(2);
    const response = await patch(id, { quantity }, jar);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ cartItems: [], totalPrice: 0, count: 0 });
    expect(await linesInDb(id)).toEqual([]);
  });

  it.each([1.5, "abc", null, undefined])("refuses quantity %j with 400", async (quantity) => {
    const { id, jar } = await bagWith(2);
    await expectError(await patch(id, quantity === undefined ? {} : { quantity }, jar), 400, "Quantity must be a whole number");
    expect((await linesInDb(id))[0]?.quantity).toBe(2);
  });

  it("refuses more than the stock with 409, but always lets the quantity go down", async () => {
    const { id, jar } = await bagWith(3, 3);
    await expectError(await patch(id, { quantity: 4 }, jar), 409, "Only 3 left in stock.");
    await ctx.db.updateTable("products").set({ inventory: 0 }).where("id", "=", id).execute();
    await expectError(await patch(id, { quantity: 4 }, jar), 409, "This product is sold out.");
    expect((await patch(id, { quantity: 2 }, jar)).status).toBe(200);
    expect((await linesInDb(id))[0]?.quantity).toBe(2);
  });

  it("answers 404 for a product that is not in the bag, for an unknown id, and for a browser without a bag", async () => {
    const { jar } = await bagWith(1);
    const other = await addProduct(ctx, {});
    await expectError(await patch(other, { quantity: 2 }, jar), 404, "This item is not in your bag.");
    await expectError(await patch("nope", { quantity: 2 }, jar), 404, "This item is not in your bag.");
    await expectError(await patch(other, { quantity: 2 }, new CookieJar()), 404, "This item is not in your bag.");
  });

  it("refuses other methods with 405", async () => {
    const response = await api("POST", "/api/cart/1");
    expect(response.status).toBe(405);
  });
});

describe("DELETE /api/cart/{productId} and DELETE /api/cart", () => {
  it("removes one line, then 404s for it", async () => {
    const a = await addProduct(ctx, { priceCents: 1000 });
    const b = await addProduct(ctx, { priceCents: 2000 });
    const jar = new CookieJar();
    await post({ productId: a }, jar);
    await post({ productId: b }, jar);
    const response = await del(a, jar);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ totalPrice: 20, count: 1 });
    await expectError(await del(a, jar), 404, "This item is not in your bag.");
  });

  it("clears the whole bag and leaves other bags alone", async () => {
    const id = await addProduct(ctx, {});
    const mine = new CookieJar();
    const theirs = new CookieJar();
    await post({ productId: id, quantity: 2 }, mine);
    await post({ productId: id, quantity: 1 }, theirs);
    const response = await api("DELETE", "/api/cart", { jar: mine });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ cartItems: [], totalPrice: 0, count: 0 });
    expect(await linesInDb(id)).toEqual([{ sessionId: expect.any(String), quantity: 1 }]);
  });
});

describe("the cart service's plus and minus", () => {
  it("plus adds one within the stock; minus takes one and removes the last", async () => {
    const id = await addProduct(ctx, { inventory: 2 });
    const session = "plus-minus-session-0001";
    await addToCart(ctx, session, id, 1);
    expect((await incrementItem(ctx, session, id)).count).toBe(2);
    await expect(incrementItem(ctx, session, id)).rejects.toThrow("Only 2 left in stock.");
    expect((await decrementItem(ctx, session, id)).count).toBe(1);
    expect((await decrementItem(ctx, session, id)).count).toBe(0);
    await expect(decrementItem(ctx, session, id)).rejects.toBeInstanceOf(NotFound);
    await expect(incrementItem(ctx, session, id)).rejects.toThrow("This item is not in your bag.");
    await expect(setQuantity(ctx, session, id, 1)).rejects.toThrow("This item is not in your bag.");
  });
});

describe("the pages' forms without JavaScript: post, then redirect back with a flash toast", () => {
  const flashOf = async (headers: Headers) => {
    const cookie = headers.getSetCookie().find((c) => c.startsWith("flash="));
    return cookie
      ? ((await cookiesFor(ctx.config, new Request("http://localhost/")).flash.parse(cookie.split(";")[0]!)) as Record<string, string>)
      : null;
  };

  it("Add To Bag creates the bag and redirects to the product page, so the next page counts it", async () => {
    const id = await addProduct(ctx, { name: "Plain Form Cap", priceCents: 3200, inventory: 5 });
    const jar = new CookieJar();
    const added = await runRoute(productPage.action, { path: `/store/${id}`, form: {}, params: { productId: String(id) }, jar });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`/store/${id}`);
    expect(await flashOf(added.headers)).toMatchObject({
      kind: "success",
      title: "Added to Bag",
      description: "Plain Form Cap is in your bag.",
    });
    expect(jar.has("cart")).toBe(true);
    const page = await runRoute<{ cart: CartPageView }>(cartPage.loader, { path: "/cart", jar });
    expect(page.data.cart.rows.map((l) => [l.product.name, l.quantity, l.lineTotal])).toEqual([["Plain Form Cap", 1, 32]]);
  });

  it("gives /cart only what its rows show: the same for two shoppers with the same bag, the plus off at the stock", async () => {
    const id = await addProduct(ctx, { name: "Row Tee", priceCents: 2000, inventory: 2 });
    const [ann, bob] = [new CookieJar(), new CookieJar()];
    for (const jar of [ann, bob]) expect((await api("POST", "/api/cart", { body: { productId: id, quantity: 1 }, jar })).status).toBe(201);
    const page = (jar: CookieJar) => runRoute<{ cart: CartPageView }>(cartPage.loader, { path: "/cart", jar });
    const annPage = await page(ann);
    expect((await page(bob)).data).toEqual(annPage.data);
    expect(annPage.data.cart).toMatchObject({ totalPrice: 20, count: 1 });
    expect(annPage.data.cart.rows).toEqual([
      {
        productId: id,
        size: null,
        color: null,
        quantity: 1,
        product: expect.objectContaining({ name: "Row Tee", price: 20, discountPercent: 0 }),
        unitPrice: 20,
        lineTotal: 20,
        available: true,
        notice: null,
        canAddMore: true,
      },
    ]);
    expect((await api("POST", "/api/cart", { body: { productId: id, quantity: 1 }, jar: ann })).status).toBe(200);
    expect((await page(ann)).data.cart.rows[0]).toMatchObject({ quantity: 2, canAddMore: false });
  });

  it("a refused add redirects back too, with the reason in the flash and no bag created", async () => {
    const id = await addProduct(ctx, { inventory: 0 });
    const jar = new CookieJar();
    const refused = await runRoute(productPage.action, { path: `/store/${id}`, form: {}, params: { productId: String(id) }, jar });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe(`/store/${id}`);
    expect(await flashOf(refused.headers)).toMatchObject({ kind: "error", title: "Error", description: "This product is sold out." });
    expect(jar.has("cart")).toBe(false);
  });

  it("plus, minus and remove on /cart redirect to /cart", async () => {
    const id = await addProduct(ctx, { inventory: 5 });
    const jar = new CookieJar();
    await post({ productId: id }, jar);
    for (const intent of ["increment", "decrement", "remove"]) {
      const result = await runRoute(cartPage.action, { path: "/cart", form: { intent, productId: String(id) }, jar });
      expect(result.status).toBe(302);
      expect(result.headers.get("Location")).toBe("/cart");
    }
    expect(await linesInDb(id)).toEqual([]);
  });
});

describe("the pages' forms posted by a fetcher (JavaScript)", () => {
  const enhanced = { enhanced: "1" };

  it("Add To Bag answers with a success notice and sets the bag cookie", async () => {
    const id = await addProduct(ctx, { name: "Fetcher Cap", inventory: 5 });
    const jar = new CookieJar();
    const added = await runRoute(productPage.action, { path: `/store/${id}`, form: enhanced, params: { productId: String(id) }, jar });
    expect(added.status).toBe(200);
    expect(added.data).toEqual({
      ok: true,
      notice: { kind: "success", title: "Added to Bag", description: "Fetcher Cap is in your bag." },
    });
    expect(jar.has("cart")).toBe(true);
  });

  it("Add To Bag on a coming-soon product answers with the spec's Error title and the server's message", async () => {
    const id = await addProduct(ctx, { isComingSoon: 1 });
    const result = await runRoute(productPage.action, { path: `/store/${id}`, form: enhanced, params: { productId: String(id) } });
    expect(result.status).toBe(409);
    expect(result.data).toEqual({
      ok: false,
      notice: { kind: "error", title: "Error", description: "This product is coming soon and can't be added to the bag yet." },
    });
  });

  it("plus, minus and remove answer with the cart as it now is; a second remove is a 404 with the cart", async () => {
    const id = await addProduct(ctx, { priceCents: 3200, inventory: 2 });
    const jar = new CookieJar();
    await post({ productId: id }, jar);
    const change = (intent: string) =>
      runRoute<{ ok: boolean; cart: CartView; notice: unknown }>(cartPage.action, {
        path: "/cart",
        form: { ...enhanced, intent, productId: String(id) },
        jar,
      });
    expect((await change("increment")).data.cart).toMatchObject({ count: 2, totalPrice: 64 });
    const capped = await change("increment");
    expect(capped.status).toBe(409);
    expect(capped.data).toMatchObject({ ok: false, notice: { title: "Error", description: "Only 2 left in stock." }, cart: { count: 2 } });
    expect((await change("decrement")).data.cart.count).toBe(1);
    expect((await change("remove")).data.cart).toEqual({ cartItems: [], totalPrice: 0, count: 0 });
    const gone = await change("remove");
    expect(gone.status).toBe(404);
    expect(gone.data).toEqual({
      ok: false,
      intent: "remove",
      cart: { cartItems: [], totalPrice: 0, count: 0 },
      notice: { kind: "error", title: "Error", description: "This item is not in your bag." },
    });
  });

  it("a malformed cart form is a 400 with a readable message", async () => {
    const result = await runRoute<{ notice: { description: string } }>(cartPage.action, {
      path: "/cart",
      form: { ...enhanced, intent: "explode", productId: "1" },
    });
    expect(result.status).toBe(400);
    expect(result.data.notice.description).toBe("Unknown cart action.");
  });
});

import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { cartIdOf, cartMemoSize, ensureCartSession, MAX_CART_COOKIE_CHARS } from "#server/http/cart-session";
import { cookiesFor } from "#server/http/requests/cookies";
import { quickVisitor } from "#server/http/visitor";
import { addToCart } from "#server/services/cart/cart";
import { createTestContext } from "../setup/context";
import { addProduct } from "./store-helpers";

// The cart-id memo (decision 0017) is keyed by the raw `cart` cookie a client sends: a value
// longer than any signed one is refused before the memo or the signature check, and forged values
// are remembered apart, so they can push out only each other (decision 0039).
const ctx = createTestContext();
const plain = new Request("http://localhost/");

async function signedValue(id: string): Promise<string> {
  const line = await cookiesFor(ctx.config, plain).cart.serialize(id);
  return line.split(";")[0]!.slice("cart=".length);
}

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
const randomId = (length: number) => Array.from(crypto.randomBytes(length), (byte) => ID_CHARS[byte % ID_CHARS.length]).join("");

describe("the cart-id memo", () => {
  it("ignores a 10 kB forged cart cookie: no check, nothing remembered, an empty bag", async () => {
    const tee = await addProduct(ctx, { name: "Memo Tee", inventory: 10 });
    const id = crypto.randomBytes(18).toString("base64url");
    await addToCart(ctx, id, tee, 2);
    const genuine = await signedValue(id);
    expect(await cartIdOf(ctx, genuine)).toBe(id);
    const before = cartMemoSize();

    const forgeries = ["A".repeat(10_240), genuine + "A".repeat(10_240 - genuine.length), `${genuine}.${"x".repeat(10_000)}`];
    for (const forged of forgeries) {
      // Answered at once: no signature check was even started for it.
      expect(cartIdOf(ctx, forged)).toBeNull();
      const read = quickVisitor(ctx, `cart=${forged}`);
      expect(read).not.toBeInstanceOf(Promise);
      expect((await read)!.visitor.cartCount).toBe(0);
    }
    expect(cartMemoSize()).toEqual(before);
    // The genuine bag is still known at once, and still counts its two units.
    expect(cartIdOf(ctx, genuine)).toBe(id);
    expect((await quickVisitor(ctx, `cart=${genuine}`))!.visitor.cartCount).toBe(2);
  });

  it("lets every genuine cookie through, up to the longest id the store accepts", async () => {
    for (const length of [16, 24, 64, 64, 64, 64]) {
      const id = randomId(length);
      const value = await signedValue(id);
      expect(value.length).toBeLessThanOrEqual(MAX_CART_COOKIE_CHARS);
      expect(await cartIdOf(ctx, value)).toBe(id);
    }
    // The store's own ids are 24 characters: their cookies are far below the bound.
    expect((await signedValue(crypto.randomBytes(18).toString("base64url"))).length).toBeLessThan(100);
  });

  it("knows a bag cookie it made itself when the browser sends it back, with no check", async () => {
    const made = await ensureCartSession(ctx, new Request("http://localhost/api/cart", { method: "POST" }));
    const value = made.setCookie!.split(";")[0]!.slice("cart=".length);
    // Answered at once (no signature check under way), and the same id a check would give.
    expect(cartIdOf(ctx, value)).toBe(made.id);
    expect(await signedValue(made.id)).toBe(value);
  });

  it("keeps a genuine bag known however many forged values arrive", async () => {
    const id = crypto.randomBytes(18).toString("base64url");
    const genuine = await signedValue(id);
    expect(await cartIdOf(ctx, genuine)).toBe(id);
    // More forgeries than the memo's 10,000 values, each under the length bound: each is checked.
    for (let batch = 0; batch < 21; batch++) {
      const values = Array.from(
        { length: 500 },
        () => `${crypto.randomBytes(30).toString("base64url")}.${crypto.randomBytes(32).toString("base64url")}`,
      );
      expect(await Promise.all(values.map((value) => cartIdOf(ctx, value)))).toEqual(values.map(() => null));
    }
    expect(cartIdOf(ctx, genuine)).toBe(id);
    expect(cartMemoSize().forged).toBeLessThanOrEqual(1_000);
    expect(cartMemoSize().checking).toBe(0);
  });
});

// /cart and /checkout read the whole bag in their own loader; the root loader's badge counts that
// same read instead of asking the database again (one bag read per personal page, decision 0027).
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { cookiesFor } from "#server/http/requests/cookies";
import { badgeFromPageBag, requestBag } from "#server/http/request-bag";
import { readVisitor } from "#server/http/visitor";
import { addToCart } from "#server/services/cart/cart";
import { createTestContext } from "../setup/context";
import { addProduct } from "./store-helpers";

const ctx = createTestContext();

async function bagWith(units: number) {
  const productId = await addProduct(ctx, { name: "Drop Tee", inventory: 50 });
  const id = crypto.randomBytes(18).toString("base64url");
  await addToCart(ctx, id, productId, units);
  const cookie = (await cookiesFor(ctx.config, new Request("http://localhost/")).cart.serialize(id)).split(";")[0]!;
  return { id, productId, cookie };
}
const requestFor = (path: string, cookie: string) => new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });

describe("one bag read per personal page", () => {
  it("gives every loader of one request the same read, and another request its own", async () => {
    const { cookie } = await bagWith(2);
    const request = requestFor("/checkout", cookie);
    const context = { clientIp: "203.0.113.7" };
    const first = requestBag(ctx, request, context);
    expect(requestBag(ctx, request, context)).toBe(first);
    expect((await first).count).toBe(2);
    expect(requestBag(ctx, request, { clientIp: "203.0.113.7" })).not.toBe(first);
  });

  it("counts the badge on /checkout and /cart from the page's read, elsewhere from the database", async () => {
    const { id, productId, cookie } = await bagWith(2);
    for (const path of ["/checkout", "/cart"]) {
      const request = requestFor(path, cookie);
      const context = { clientIp: "203.0.113.8" };
      const pageSaw = await requestBag(ctx, request, context);
      // A unit added (another tab) between the page's read and the header's: the page and its
      // header still agree, since the header did not read again.
      await addToCart(ctx, id, productId, 1);
      const header = await readVisitor(ctx, request, badgeFromPageBag(ctx, request, context));
      expect(header.visitor.cartCount).toBe(pageSaw.count);
      expect((await readVisitor(ctx, request)).visitor.cartCount).toBe(pageSaw.count + 1);
    }
    expect(badgeFromPageBag(ctx, requestFor("/store", cookie), {})).toBeUndefined();
    expect(badgeFromPageBag(ctx, requestFor("/checkout-success", cookie), {})).toBeUndefined();
  });
});

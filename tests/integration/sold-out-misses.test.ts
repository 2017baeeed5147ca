// Decision 0066: the sold-out refusals a rush makes are queued per process and written together,
// not one write each under SQLite's one writer; the drop report still counts every one of them.
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { CHECKOUT_MESSAGES } from "#server/contracts/checkout";
import { resetCheckoutLimits } from "#server/services/checkout/checkout";
import { FLUSH_AT, FLUSH_EVERY_MS, flushSoldOutMisses, recordSoldOutMiss, SoldOut } from "#server/services/drop/sold-out-misses";
import { Conflict } from "#server/errors";
import { createTestContext } from "../setup/context";
import { expectLoggedErrors, loggedAt } from "../setup/log-capture";
import { api, CookieJar } from "../setup/http";
import { addProduct } from "./store-helpers";

const ctx = createTestContext();
const address = { street: "350 5th Ave", city: "New York", state: "NY", zipCode: "10001", country: "US" };
const customer = { email: "late@example.com", name: "Lou Late", phone: "", ...address };

beforeAll(() => useAppContextForTests(ctx));

const missesOf = (productId: number) => ctx.db.selectFrom("soldOutMisses").selectAll().where("productId", "=", productId).execute();
const until = async (check: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
};

describe("sold-out misses", () => {
  it("answers the shopper 409 at once and writes the miss within the flush interval", async () => {
    await resetCheckoutLimits(ctx);
    const productId = await addProduct(ctx, { name: "Last Cap", priceCents: 3000, inventory: 1 });
    const jar = new CookieJar();
    expect((await api("POST", "/api/cart", { body: { productId, quantity: 1 }, jar })).status).toBe(201);
    await ctx.db.updateTable("products").set({ inventory: 0 }).where("id", "=", productId).execute();

    const refused = await api("POST", "/api/process-order", { jar, body: { customerInfo: customer, shippingMethod: "usps-ground_saver" } });
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain(CHECKOUT_MESSAGES.soldOut("Last Cap"));
    // Queued, not written in the shopper's request.
    expect(await missesOf(productId)).toHaveLength(0);

    expect(await until(async () => (await missesOf(productId)).length === 1, FLUSH_EVERY_MS + 1500)).toBe(true);
    const [miss] = await missesOf(productId);
    expect(miss).toMatchObject({ productName: "Last Cap", sessionId: expect.any(String), customerKey: expect.any(String) });
  });

  it("writes a full batch at once, in one go, without waiting for the timer", async () => {
    const productId = await addProduct(ctx, { name: "Batch Tee", priceCents: 3000, inventory: 0 });
    for (let i = 0; i < FLUSH_AT; i++)
      recordSoldOutMiss(ctx, new SoldOut(productId, "Batch Tee"), { sessionId: `bag-${i}`, customerKey: null });
    expect(await until(async () => (await missesOf(productId)).length === FLUSH_AT, FLUSH_EVERY_MS / 2)).toBe(true);
    expect(new Set((await missesOf(productId)).map((m) => m.sessionId)).size).toBe(FLUSH_AT);
    // One transaction: every row carries the same moment's neighbours, ids in one unbroken run.
    const ids = (await missesOf(productId)).map((m) => m.id).sort((a, b) => a - b);
    expect(ids[ids.length - 1]! - ids[0]!).toBe(FLUSH_AT - 1);
  });

  it("records only sold-out refusals", async () => {
    const productId = await addProduct(ctx, { name: "Other Tee", priceCents: 3000, inventory: 0 });
    recordSoldOutMiss(ctx, new Conflict("Something else"), { sessionId: "bag-x", customerKey: null });
    recordSoldOutMiss(ctx, new Error("boom"), { sessionId: "bag-y", customerKey: null });
    await flushSoldOutMisses(ctx);
    expect(await missesOf(productId)).toHaveLength(0);
    expect(await ctx.db.selectFrom("soldOutMisses").selectAll().where("sessionId", "in", ["bag-x", "bag-y"]).execute()).toHaveLength(0);
  });

  it("keeps the misses the database refused and writes them on the next try", async () => {
    expectLoggedErrors();
    const productId = await addProduct(ctx, { name: "Retry Tee", priceCents: 3000, inventory: 0 });
    await sql`ALTER TABLE sold_out_misses RENAME TO sold_out_misses_away`.execute(ctx.db);
    try {
      for (const sessionId of ["r-1", "r-2", "r-3"])
        recordSoldOutMiss(ctx, new SoldOut(productId, "Retry Tee"), { sessionId, customerKey: null });
      await flushSoldOutMisses(ctx);
    } finally {
      await sql`ALTER TABLE sold_out_misses_away RENAME TO sold_out_misses`.execute(ctx.db);
    }
    expect(loggedAt("error")).toContain("Could not record sold-out misses");
    expect(await missesOf(productId)).toHaveLength(0);
    await flushSoldOutMisses(ctx);
    expect((await missesOf(productId)).map((m) => m.sessionId).sort()).toEqual(["r-1", "r-2", "r-3"]);
  });
});

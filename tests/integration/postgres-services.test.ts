// How far the store's services get on PostgreSQL today (issue 13), on a database migrated by the
// same migrations, whatever STORE_TEST_DB says (the ordinary integration files run on PostgreSQL
// only under STORE_TEST_DB=postgres). Known gaps, when there are any, are written as `it.fails`,
// so that fixing one turns its test red until it is moved over.
import { expect, it } from "vitest";
import { listVisibleProducts } from "#server/services/catalog/catalog";
import { addToCart, bagCount, getCart, setQuantity } from "#server/services/cart/cart";
import { ensureAdmin } from "#server/services/accounts/users";
import { seedIfEmpty } from "#server/seed";
import { createPostgresTestContext } from "../setup/postgres-context";
import { describeOnPostgres } from "../setup/postgres-db";

describeOnPostgres("the services on PostgreSQL", () => {
  const store = createPostgresTestContext();

  it("seed the demo catalogue and create the first admin", async () => {
    expect(await seedIfEmpty(store.ctx)).toBe(true);
    expect(await ensureAdmin(store.ctx, store.ctx.config.admin)).toBe(store.ctx.config.admin.username);
    expect(await ensureAdmin(store.ctx, store.ctx.config.admin)).toBeNull();
  });

  it("list the products shoppers see, and put one in a bag up to its stock", async () => {
    const products = await listVisibleProducts(store.ctx);
    expect(products.length).toBeGreaterThan(0);
    const product = products.find((p) => p.inventory >= 2)!;
    const { created } = await addToCart(store.ctx, "bag-1", product.id, 1);
    expect(created).toBe(true);
    // The second add is the ON CONFLICT … DO UPDATE … WHERE path, capped by stock and limit.
    expect((await addToCart(store.ctx, "bag-1", product.id, 1)).created).toBe(false);
    await setQuantity(store.ctx, "bag-1", product.id, 1);
    await setQuantity(store.ctx, "bag-1", product.id, 2);
    expect((await getCart(store.ctx, "bag-1")).count).toBe(2);
    await expect(setQuantity(store.ctx, "bag-1", product.id, product.inventory + 1)).rejects.toThrow();
  });

  // The page cache's hole for the bag: a synchronous prepared statement on SQLite, a query on
  // PostgreSQL.
  it("count the bag for the page cache's hole", async () => {
    expect(await bagCount(store.ctx, "bag-1")).toBe(2);
  });
});

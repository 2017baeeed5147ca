// Migration 0021 (issue 23, decision 0045) on a store that already sells: its products get no
// sizes and keep their stock, its bags keep their lines (now with no size and no colour), and its
// orders keep their items. On SQLite, and on PostgreSQL when the run has one.
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrateTo } from "../../tests/setup/migrate-to";
import { describeOnPostgres, postgresDatabaseForFile } from "../../tests/setup/postgres-db";
import { openDatabase, type Db } from "#db/client";

/** A store as 0020 left it: a product with stock, a bag line, a paid order's item. */
async function storeBefore(db: Db) {
  await sql`INSERT INTO products (name, description, price_cents, inventory, available_colors)
    VALUES ('Old Tee', 'A tee from before sizes existed.', 3800, 7, '["Black","Navy"]')`.execute(db);
  const { rows } = await sql<{ id: number }>`SELECT id FROM products WHERE name = 'Old Tee'`.execute(db);
  const productId = rows[0]!.id;
  await sql`INSERT INTO cart_items (session_id, product_id, quantity) VALUES ('bag-1', ${productId}, 2)`.execute(db);
  await sql`INSERT INTO orders (customer_email, customer_name, shipping_address, subtotal_cents, total_cents)
    VALUES ('a@example.com', 'A', '{}', 3800, 3800)`.execute(db);
  const order = await sql<{ id: number }>`SELECT id FROM orders`.execute(db);
  await sql`INSERT INTO order_items (order_id, product_id, product_name, product_price_cents, quantity, total_cents)
    VALUES (${order.rows[0]!.id}, ${productId}, 'Old Tee', 3800, 1, 3800)`.execute(db);
  return productId;
}

async function checkAfter(db: Db, productId: number) {
  const product = await db
    .selectFrom("products")
    .select(["inventory", "stockPerColor", "sizeGuide"])
    .where("id", "=", productId)
    .executeTakeFirstOrThrow();
  expect(product).toEqual({ inventory: 7, stockPerColor: 0, sizeGuide: null });
  expect(await db.selectFrom("productSizes").selectAll().execute()).toEqual([]);
  expect(await db.selectFrom("productVariants").selectAll().execute()).toEqual([]);
  expect(await db.selectFrom("cartItems").select(["sessionId", "productId", "quantity", "size", "color"]).execute()).toEqual([
    { sessionId: "bag-1", productId, quantity: 2, size: "", color: "" },
  ]);
  expect(await db.selectFrom("orderItems").select(["productName", "quantity", "size", "color"]).execute()).toEqual([
    { productName: "Old Tee", quantity: 1, size: null, color: null },
  ]);
  // One line per product, size and colour: a second size of the same product is a line of its own.
  await db.insertInto("cartItems").values({ sessionId: "bag-1", productId, quantity: 1, size: "M", color: "Black" }).execute();
  await expect(
    db.insertInto("cartItems").values({ sessionId: "bag-1", productId, quantity: 1, size: "M", color: "Black" }).execute(),
  ).rejects.toThrow();
  // A size's stock never goes below zero, and its label is unique per product whatever its case.
  await db.insertInto("productSizes").values({ productId, label: "M", labelKey: "m", position: 0, inventory: 1 }).execute();
  await expect(
    db.insertInto("productSizes").values({ productId, label: "m", labelKey: "m", position: 1, inventory: 1 }).execute(),
  ).rejects.toThrow();
  await expect(db.updateTable("productSizes").set({ inventory: -1 }).where("productId", "=", productId).execute()).rejects.toThrow();
}

describe("migration 0021 on SQLite", () => {
  const db = openDatabase(":memory:");
  afterAll(() => db.destroy());

  it("gives existing products no sizes and keeps their stock, bags and orders", async () => {
    await migrateTo(db, "0020_event_counts");
    const productId = await storeBefore(db);
    await migrateTo(db, "0021_sizes_and_colours");
    await checkAfter(db, productId);
  });
});

describeOnPostgres("migration 0021 on PostgreSQL", () => {
  const database = postgresDatabaseForFile();
  let db: Db | undefined;
  afterAll(async () => {
    await db?.destroy();
  });

  it("gives existing products no sizes and keeps their stock, bags and orders", async () => {
    db = openDatabase({ engine: "postgres", url: database.url, poolSize: 2 });
    await migrateTo(db, "0020_event_counts");
    const productId = await storeBefore(db);
    await migrateTo(db, "0021_sizes_and_colours");
    await checkAfter(db, productId);
  });
});

import { sql, type Kysely, type Migration } from "kysely";
import { isPostgres, runStatements, SQLITE_NOW } from "./dialect";

/**
 * Issue 23: an order holds one row per product, size and colour. 0021 gave holds their size and
 * colour but left 0003's UNIQUE (order_id, product_id), so a bag with a tee in S and in M could not
 * be placed (the second hold broke the constraint). The key now names the variant, as the bag's does.
 */
const holdsTable = (name: string, unique: string) => `CREATE TABLE ${name} (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        status TEXT NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'sold', 'released')),
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT ${SQLITE_NOW}, size TEXT NOT NULL DEFAULT '', color TEXT NOT NULL DEFAULT '',
        UNIQUE (${unique})
      )`;

/** SQLite cannot change a table's UNIQUE constraint: the holds' table is built again, ids kept. */
async function rebuildOnSqlite(db: Kysely<unknown>, unique: string) {
  await runStatements(db, [
    holdsTable("inventory_holds_next", unique),
    `INSERT INTO inventory_holds_next (id, order_id, product_id, quantity, status, expires_at, created_at, size, color)
      SELECT id, order_id, product_id, quantity, status, expires_at, created_at, size, color FROM inventory_holds`,
    `DROP TABLE inventory_holds`,
    `ALTER TABLE inventory_holds_next RENAME TO inventory_holds`,
    `CREATE INDEX inventory_holds_open ON inventory_holds(status, expires_at)`,
  ]);
}

export const holdsPerVariant: Migration = {
  async up(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      await runStatements(db, [
        `ALTER TABLE inventory_holds DROP CONSTRAINT inventory_holds_order_id_product_id_key`,
        `ALTER TABLE inventory_holds ADD CONSTRAINT inventory_holds_line_key UNIQUE (order_id, product_id, size, color)`,
      ]);
    } else {
      await rebuildOnSqlite(db, "order_id, product_id, size, color");
    }
  },
  async down(db: Kysely<unknown>) {
    // An order's holds of one product in several sizes become one: the first one stays.
    await sql`DELETE FROM inventory_holds WHERE id NOT IN (SELECT min(id) FROM inventory_holds GROUP BY order_id, product_id)`.execute(db);
    if (isPostgres(db)) {
      await sql`ALTER TABLE inventory_holds DROP CONSTRAINT inventory_holds_line_key`.execute(db);
      await sql`ALTER TABLE inventory_holds ADD CONSTRAINT inventory_holds_order_id_product_id_key UNIQUE (order_id, product_id)`.execute(
        db,
      );
    } else {
      await rebuildOnSqlite(db, "order_id, product_id");
    }
  },
};

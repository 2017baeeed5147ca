import { sql, type Kysely, type Migration } from "kysely";
import { isPostgres, runStatements, SQLITE_NOW } from "./dialect";

/**
 * Issue 23 (decision 0045): sizes and colours. A product may list sizes, each with its own stock
 * (`product_sizes`); with sizes, `products.inventory` is their sum, kept by the services. A product
 * may keep stock per colour and size (`stock_per_color` = 1): then `product_variants` holds one row
 * per colour and size (size '' when the product has no sizes), and the sizes' stock is the sum over
 * their colours. Existing products get no sizes, no variants and keep their stock: they sell as before.
 *
 * Bag lines and holds name the size and colour they are for ('' for none, so that UNIQUE and the
 * hold's release compare plain values); order items keep them as the buyer saw them (NULL for none).
 */
export const sizesAndColours: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = isPostgres(db);
    await runStatements(db, [
      `ALTER TABLE products ADD COLUMN stock_per_color INTEGER NOT NULL DEFAULT 0 CHECK (stock_per_color IN (0, 1))`,
      `ALTER TABLE products ADD COLUMN size_guide TEXT`,
      `CREATE TABLE product_sizes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        label TEXT NOT NULL,
        label_key TEXT NOT NULL,
        position INTEGER NOT NULL,
        inventory INTEGER NOT NULL DEFAULT 0 CHECK (inventory >= 0),
        UNIQUE (product_id, label_key)
      )`,
      `CREATE TABLE product_variants (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        size TEXT NOT NULL DEFAULT '',
        color TEXT NOT NULL,
        inventory INTEGER NOT NULL DEFAULT 0 CHECK (inventory >= 0),
        UNIQUE (product_id, size, color)
      )`,
      `ALTER TABLE inventory_holds ADD COLUMN size TEXT NOT NULL DEFAULT ''`,
      `ALTER TABLE inventory_holds ADD COLUMN color TEXT NOT NULL DEFAULT ''`,
      `ALTER TABLE order_items ADD COLUMN size TEXT`,
      `ALTER TABLE order_items ADD COLUMN color TEXT`,
    ]);
    if (postgres) {
      await runStatements(db, [
        `ALTER TABLE cart_items ADD COLUMN size TEXT NOT NULL DEFAULT ''`,
        `ALTER TABLE cart_items ADD COLUMN color TEXT NOT NULL DEFAULT ''`,
        `ALTER TABLE cart_items DROP CONSTRAINT cart_items_session_id_product_id_key`,
        `ALTER TABLE cart_items ADD CONSTRAINT cart_items_line_key UNIQUE (session_id, product_id, size, color)`,
      ]);
    } else {
      // SQLite cannot change a table's UNIQUE constraint: the bag's table is built again, ids kept.
      await runStatements(db, [
        `CREATE TABLE cart_items_sized (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    quantity INTEGER NOT NULL DEFAULT 1 CHECK (quantity > 0),
    created_at TEXT NOT NULL DEFAULT ${SQLITE_NOW},
    updated_at TEXT NOT NULL DEFAULT ${SQLITE_NOW},
    size TEXT NOT NULL DEFAULT '',
    color TEXT NOT NULL DEFAULT '',
    UNIQUE (session_id, product_id, size, color)
  )`,
        `INSERT INTO cart_items_sized (id, session_id, product_id, quantity, created_at, updated_at)
          SELECT id, session_id, product_id, quantity, created_at, updated_at FROM cart_items`,
        `DROP TABLE cart_items`,
        `ALTER TABLE cart_items_sized RENAME TO cart_items`,
      ]);
    }
    await pageVersionTriggers(db, postgres);
  },
  async down(db: Kysely<unknown>) {
    const postgres = isPostgres(db);
    for (const [table, event] of TRIGGERS) {
      const name = sql.raw(triggerName(table, event));
      await (postgres ? sql`DROP TRIGGER IF EXISTS ${name} ON ${sql.raw(table)}` : sql`DROP TRIGGER IF EXISTS ${name}`).execute(db);
    }
    await sql`DROP TABLE product_variants`.execute(db);
    await sql`DROP TABLE product_sizes`.execute(db);
    for (const [table, column] of [
      ["products", "stock_per_color"],
      ["products", "size_guide"],
      ["inventory_holds", "size"],
      ["inventory_holds", "color"],
      ["order_items", "size"],
      ["order_items", "color"],
    ] as const) {
      await sql`ALTER TABLE ${sql.raw(table)} DROP COLUMN ${sql.raw(column)}`.execute(db);
    }
    // The bag's lines of one product in several sizes become one line: the first one stays.
    await sql`DELETE FROM cart_items WHERE id NOT IN (SELECT min(id) FROM cart_items GROUP BY session_id, product_id)`.execute(db);
    if (postgres) {
      await sql`ALTER TABLE cart_items DROP CONSTRAINT cart_items_line_key`.execute(db);
      await sql`ALTER TABLE cart_items ADD CONSTRAINT cart_items_session_id_product_id_key UNIQUE (session_id, product_id)`.execute(db);
      await sql`ALTER TABLE cart_items DROP COLUMN size`.execute(db);
      await sql`ALTER TABLE cart_items DROP COLUMN color`.execute(db);
    } else {
      await runStatements(db, [
        `CREATE TABLE cart_items_plain (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    quantity INTEGER NOT NULL DEFAULT 1 CHECK (quantity > 0),
    created_at TEXT NOT NULL DEFAULT ${SQLITE_NOW},
    updated_at TEXT NOT NULL DEFAULT ${SQLITE_NOW},
    UNIQUE (session_id, product_id)
  )`,
        `INSERT INTO cart_items_plain (id, session_id, product_id, quantity, created_at, updated_at)
          SELECT id, session_id, product_id, quantity, created_at, updated_at FROM cart_items`,
        `DROP TABLE cart_items`,
        `ALTER TABLE cart_items_plain RENAME TO cart_items`,
      ]);
    }
  },
};

/**
 * A size or colour selling out (or coming back) changes what the product's page shows (a struck
 * through chip, "Few sizes left"): it moves that product's page version as a product write does
 * (0014). Stock moving while it stays above 0 is left to the pages' one-second life.
 */
const TRIGGERS: [string, "INSERT" | "UPDATE" | "DELETE", string, string | null][] = [
  ["product_sizes", "INSERT", "NEW.product_id", null],
  ["product_sizes", "UPDATE", "NEW.product_id", "NOT (OLD.inventory > 0 AND NEW.inventory > 0 AND OLD.label IS NEW.label)"],
  ["product_sizes", "DELETE", "OLD.product_id", null],
  ["product_variants", "INSERT", "NEW.product_id", null],
  ["product_variants", "UPDATE", "NEW.product_id", "NOT (OLD.inventory > 0 AND NEW.inventory > 0)"],
  ["product_variants", "DELETE", "OLD.product_id", null],
];
const triggerName = (table: string, event: string) => `product_page_version_${table}_${event.toLowerCase()}`;

async function pageVersionTriggers(db: Kysely<unknown>, postgres: boolean) {
  for (const [table, event, id, when] of TRIGGERS) {
    const statement = postgres
      ? // 0014's function: bumps the lists and this product's page, and tells the listening workers.
        `CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table} FOR EACH ROW${
          when ? ` WHEN (${when.replace(/ IS /g, " IS NOT DISTINCT FROM ")})` : ""
        } EXECUTE FUNCTION product_page_version_bump('product_id')`
      : `CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table}${when ? ` WHEN ${when}` : ""}
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (${id}, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END`;
    await sql.raw(statement).execute(db);
  }
}

import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Issue 12 parts 2–4 (decision 0020).
 * - `products.max_per_customer`: how many units one customer may own of a product (null: no limit).
 * - `orders.customer_key` / `orders.address_key`: the buyer's e-mail case-folded and the shipping
 *   address normalised, written by Process Order, so the limit is one indexed count across a
 *   customer's orders. Orders from before this migration get their e-mail key; their address key
 *   stays null (the normaliser lives in the services, which db/ does not know).
 * - `early_access_links`: one signed, single-use, revocable link per subscriber (and campaign).
 *   The URL carries the row id and an HMAC of it, so it can be rebuilt (a resumed campaign) and
 *   no secret is stored; `pass_hash` binds the one browser that opened it.
 */
export const earlyAccessAndLimits: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `ALTER TABLE products ADD COLUMN max_per_customer INTEGER CHECK (max_per_customer IS NULL OR max_per_customer >= 1)`,
    ]);
    await runStatements(db, [`ALTER TABLE orders ADD COLUMN customer_key TEXT`]);
    await runStatements(db, [`ALTER TABLE orders ADD COLUMN address_key TEXT`]);
    await runStatements(db, [`UPDATE orders SET customer_key = lower(trim(customer_email))`]);
    await runStatements(db, [`CREATE INDEX orders_customer_key ON orders (customer_key)`]);
    await runStatements(db, [`CREATE INDEX orders_address_key ON orders (address_key)`]);
    await runStatements(db, [
      `CREATE TABLE early_access_links (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      email TEXT NOT NULL,
      subscriber_id INTEGER REFERENCES subscribers (id) ON DELETE SET NULL,
      campaign_id INTEGER REFERENCES email_campaigns (id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      opened_at TEXT,
      pass_hash TEXT,
      revoked_at TEXT
    )`,
    ]);
    // A campaign makes one link per recipient, however often it is resumed.
    await runStatements(db, [
      `CREATE UNIQUE INDEX early_access_links_campaign ON early_access_links (campaign_id, subscriber_id)
      WHERE campaign_id IS NOT NULL`,
    ]);
    await runStatements(db, [`CREATE INDEX early_access_links_email ON early_access_links (email)`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE early_access_links`.execute(db);
    await sql`DROP INDEX orders_address_key`.execute(db);
    await sql`DROP INDEX orders_customer_key`.execute(db);
    await sql`ALTER TABLE orders DROP COLUMN address_key`.execute(db);
    await sql`ALTER TABLE orders DROP COLUMN customer_key`.execute(db);
    await sql`ALTER TABLE products DROP COLUMN max_per_customer`.execute(db);
  },
};

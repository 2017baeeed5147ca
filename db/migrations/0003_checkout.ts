import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

const NOW = "(strftime('%Y-%m-%dT%H:%M:%fZ','now'))";

/**
 * Checkout: inventory holds (units taken from stock while a buyer pays), the local test
 * processor's payment intents, and the provider events already handled (idempotency).
 */
export const checkout: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = [
      `ALTER TABLE orders ADD COLUMN hold_expires_at TEXT`,
      `ALTER TABLE orders ADD COLUMN paid_at TEXT`,
      `ALTER TABLE orders ADD COLUMN shipping_method TEXT`,
      `CREATE TABLE inventory_holds (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
        product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        status TEXT NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'sold', 'released')),
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT ${NOW},
        UNIQUE (order_id, product_id)
      )`,
      `CREATE INDEX inventory_holds_open ON inventory_holds(status, expires_at)`,
      `CREATE TABLE local_payment_intents (
        id TEXT PRIMARY KEY,
        client_secret TEXT NOT NULL UNIQUE,
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        currency TEXT NOT NULL DEFAULT 'usd',
        status TEXT NOT NULL DEFAULT 'requires_payment_method',
        last_error TEXT,
        order_id INTEGER,
        idempotency_key TEXT UNIQUE,
        refunded_cents INTEGER NOT NULL DEFAULT 0 CHECK (refunded_cents >= 0 AND refunded_cents <= amount_cents),
        created_at TEXT NOT NULL DEFAULT ${NOW},
        updated_at TEXT NOT NULL DEFAULT ${NOW}
      )`,
      `CREATE TABLE payment_events (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        payment_intent_id TEXT,
        received_at TEXT NOT NULL DEFAULT ${NOW}
      )`,
    ];
    await runStatements(db, statements);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ["payment_events", "local_payment_intents", "inventory_holds"]) {
      await sql.raw(`DROP TABLE IF EXISTS ${table}`).execute(db);
    }
    for (const column of ["shipping_method", "paid_at", "hold_expires_at"]) {
      await sql.raw(`ALTER TABLE orders DROP COLUMN ${column}`).execute(db);
    }
  },
};

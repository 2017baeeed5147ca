import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * An order placed while payments ran in test mode (the built-in test processor, no Stripe keys)
 * was paid with a public test card: nobody paid for it. `is_test` keeps such orders apart, so the
 * admin sees them marked and revenue leaves them out. Orders from before this migration were
 * test orders exactly when the test processor holds their payment.
 */
export const testOrders: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`ALTER TABLE orders ADD COLUMN is_test INTEGER NOT NULL DEFAULT 0 CHECK (is_test IN (0, 1))`]);
    await runStatements(db, [`UPDATE orders SET is_test = 1 WHERE payment_intent_id IN (SELECT id FROM local_payment_intents)`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE orders DROP COLUMN is_test`.execute(db);
  },
};

import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Stripe's hosted Checkout, for buyers without JavaScript when Stripe is configured: the order
 * remembers the Checkout Session it sent the buyer to, so the return page and the
 * checkout.session.completed webhook find it again.
 */
export const hostedCheckout: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`ALTER TABLE orders ADD COLUMN checkout_session_id TEXT`]);
    await runStatements(db, [
      `CREATE UNIQUE INDEX orders_checkout_session_id ON orders(checkout_session_id) WHERE checkout_session_id IS NOT NULL`,
    ]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX orders_checkout_session_id`.execute(db);
    await sql`ALTER TABLE orders DROP COLUMN checkout_session_id`.execute(db);
  },
};

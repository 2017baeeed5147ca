import { sql, type Kysely, type Migration } from "kysely";

/**
 * Stripe's hosted Checkout, for buyers without JavaScript when Stripe is configured: the order
 * remembers the Checkout Session it sent the buyer to, so the return page and the
 * checkout.session.completed webhook find it again.
 */
export const hostedCheckout: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE orders ADD COLUMN checkout_session_id TEXT`.execute(db);
    await sql`CREATE UNIQUE INDEX orders_checkout_session_id ON orders(checkout_session_id) WHERE checkout_session_id IS NOT NULL`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX orders_checkout_session_id`.execute(db);
    await sql`ALTER TABLE orders DROP COLUMN checkout_session_id`.execute(db);
  },
};

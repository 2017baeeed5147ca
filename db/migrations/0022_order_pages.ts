import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Issue 25 (decision 0046): the buyer's order page and the e-mails on the way.
 * - `page_nonce`: random per order; the page's token is an HMAC of it under the store's secret,
 *   so neither the id nor the payment intent gives it, and the database alone does not either.
 * - `page_token_hash`: SHA-256 of that token, the only way an order is found by its page.
 * - `shipped_at`, `delivered_at`, `cancelled_at`: when the order's status last reached each step
 *   (the page's timeline).
 * - `site_origin`: the store's address as the buyer saw it when ordering: the e-mails' links
 *   point there unless PUBLIC_URL says otherwise.
 * - `*_mailed_at`: the buyer was sent that e-mail; claimed by a conditional update, so it goes
 *   once per order whoever sets the status, and however often.
 */
export const orderPages: Migration = {
  async up(db: Kysely<unknown>) {
    for (const column of [
      "page_nonce",
      "page_token_hash",
      "shipped_at",
      "delivered_at",
      "cancelled_at",
      "shipped_mailed_at",
      "delivered_mailed_at",
      "cancelled_mailed_at",
      "refund_mailed_at",
      "site_origin",
    ]) {
      await runStatements(db, [`ALTER TABLE orders ADD COLUMN ${column} TEXT`]);
    }
    await runStatements(db, [`CREATE UNIQUE INDEX orders_page_token_hash ON orders (page_token_hash) WHERE page_token_hash IS NOT NULL`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX orders_page_token_hash`.execute(db);
    for (const column of [
      "site_origin",
      "refund_mailed_at",
      "cancelled_mailed_at",
      "delivered_mailed_at",
      "shipped_mailed_at",
      "cancelled_at",
      "delivered_at",
      "shipped_at",
      "page_token_hash",
      "page_nonce",
    ]) {
      await sql`ALTER TABLE orders DROP COLUMN ${sql.raw(column)}`.execute(db);
    }
  },
};

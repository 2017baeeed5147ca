import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * After an order is paid the store still owes the buyer a confirmation e-mail and the parcel a
 * label. Both follow the payment at once, but a crash, a Postmark outage or a Shippo hiccup in
 * between must not leave a paid order silently unfulfilled: these columns let a sweeper find such
 * orders and finish them, each step once.
 * - confirmation_sent_at: the e-mail was accepted (stored locally or by Postmark);
 * - fulfilled_at: nothing left to do (e-mail sent, label bought or given up on);
 * - fulfil_attempts / fulfil_next_at: the retry schedule, backing off.
 * Orders paid before this migration were fulfilled inline: they count as done.
 */
export const fulfilment: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `ALTER TABLE orders ADD COLUMN confirmation_sent_at TEXT`,
      `ALTER TABLE orders ADD COLUMN fulfilled_at TEXT`,
      `ALTER TABLE orders ADD COLUMN fulfil_attempts INTEGER NOT NULL DEFAULT 0`,
      `ALTER TABLE orders ADD COLUMN fulfil_next_at TEXT`,
      `UPDATE orders SET confirmation_sent_at = paid_at, fulfilled_at = paid_at WHERE paid_at IS NOT NULL`,
      `CREATE INDEX orders_unfulfilled ON orders(fulfil_next_at) WHERE paid_at IS NOT NULL AND fulfilled_at IS NULL`,
    ]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX orders_unfulfilled`.execute(db);
    for (const column of ["fulfil_next_at", "fulfil_attempts", "fulfilled_at", "confirmation_sent_at"]) {
      await sql.raw(`ALTER TABLE orders DROP COLUMN ${column}`).execute(db);
    }
  },
};

import { sql, type Kysely, type Migration } from "kysely";
import { runStatements, SQLITE_NOW } from "./dialect";

/**
 * Issue 21 (decision 0038): money and labels survive a crash between the provider and the database.
 * - `refunds.idempotency_key`: a late payment's refund is written (status `refunding`, this key)
 *   before the provider is called, so whoever finishes it (the sweeper after a crash) asks the
 *   provider for that refund instead of making a second.
 * - `shipping_labels.idempotency_key` / `provider_ref`: a label's row is written (status
 *   `purchasing`) before it is bought; the provider sees the key, and `provider_ref` keeps what
 *   finds the purchase again (Shippo's rate, then its transaction).
 * - `local_refunds`: the test processor's refunds, one per idempotency key, as Stripe keeps them.
 */
export const crashSafeRefundsAndLabels: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`ALTER TABLE refunds ADD COLUMN idempotency_key TEXT`]);
    await runStatements(db, [`CREATE UNIQUE INDEX refunds_idempotency_key ON refunds (idempotency_key) WHERE idempotency_key IS NOT NULL`]);
    await runStatements(db, [`ALTER TABLE shipping_labels ADD COLUMN idempotency_key TEXT`]);
    await runStatements(db, [`ALTER TABLE shipping_labels ADD COLUMN provider_ref TEXT`]);
    await runStatements(db, [
      `CREATE UNIQUE INDEX shipping_labels_idempotency_key ON shipping_labels (idempotency_key) WHERE idempotency_key IS NOT NULL`,
    ]);
    await runStatements(db, [
      `CREATE TABLE local_refunds (
      id TEXT PRIMARY KEY,
      payment_intent_id TEXT NOT NULL,
      idempotency_key TEXT NOT NULL UNIQUE,
      amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
      status TEXT NOT NULL DEFAULT 'succeeded',
      created_at TEXT NOT NULL DEFAULT ${SQLITE_NOW}
    )`,
    ]);
    await runStatements(db, [`CREATE INDEX local_refunds_payment_intent_id ON local_refunds (payment_intent_id)`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE local_refunds`.execute(db);
    await sql`DROP INDEX shipping_labels_idempotency_key`.execute(db);
    await sql`ALTER TABLE shipping_labels DROP COLUMN provider_ref`.execute(db);
    await sql`ALTER TABLE shipping_labels DROP COLUMN idempotency_key`.execute(db);
    await sql`DROP INDEX refunds_idempotency_key`.execute(db);
    await sql`ALTER TABLE refunds DROP COLUMN idempotency_key`.execute(db);
  },
};

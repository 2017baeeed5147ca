import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Issue 25's tracking webhook finds the order by its label's tracking number
 * (carrier-tracking.ts): without an index, every carrier event (several per parcel) read the whole
 * labels table, one row per order ever shipped.
 */
export const labelTrackingIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`CREATE INDEX shipping_labels_tracking_number ON shipping_labels(tracking_number)`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX shipping_labels_tracking_number`.execute(db);
  },
};

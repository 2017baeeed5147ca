import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * A Process Order that finds the bag short of stock first puts back the holds of unpaid orders
 * past their time (holds.ts releaseExpiredHolds), and so does the sweeper. Without an index that
 * read the whole orders table, every order the store ever took, for each shopper a drop turns away
 * (800 of a rush's 1,000). Only unpaid orders are indexed: few at any time.
 */
export const unpaidOrdersByHoldExpiry: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`CREATE INDEX orders_unpaid_hold_expiry ON orders(hold_expires_at) WHERE paid_at IS NULL`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX orders_unpaid_hold_expiry`.execute(db);
  },
};

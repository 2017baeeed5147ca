import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Process Order first expires the bag's own earlier unpaid order (checkout.ts): found by the bag's
 * session among unpaid orders. Without an index that read the whole orders table, every order the
 * store ever took, for each shopper of a drop. Only unpaid orders are indexed: few at any time.
 */
export const unpaidOrdersBySession: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`CREATE INDEX orders_unpaid_session ON orders(session_id) WHERE paid_at IS NULL`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX orders_unpaid_session`.execute(db);
  },
};

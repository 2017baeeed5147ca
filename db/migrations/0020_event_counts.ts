import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Issue 21 (decision 0040): events bounded for strangers. `count` is how many events a row stands
 * for: 1 for a row of its own, more for the views of visitors without cookies (a count per minute,
 * page kind and entry, written once a minute) and for a `dropped` row (events a process did not
 * keep past its ceiling, or that the database refused). The roll-ups sum it.
 */
export const eventCounts: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [`ALTER TABLE events ADD COLUMN count INTEGER NOT NULL DEFAULT 1`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`ALTER TABLE events DROP COLUMN count`.execute(db);
  },
};

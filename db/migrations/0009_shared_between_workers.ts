import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * What the workers of `npm start` (and later several machines) must agree on lives in the
 * database, not in one process's memory (decision 0015):
 * - `rate_limits`: one fixed-window counter per limit (bucket) and caller (key), bumped by one
 *   atomic upsert per attempt; rows past `reset_at` are dead and the sweeper deletes them.
 * - `leases`: who runs a singleton chore (the sweeper) until `expires_at`; the holder renews it,
 *   anyone may take it once it has expired.
 */
export const sharedBetweenWorkers: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE rate_limits (
      bucket TEXT NOT NULL,
      key TEXT NOT NULL,
      count INTEGER NOT NULL,
      reset_at TEXT NOT NULL,
      PRIMARY KEY (bucket, key)
    ) WITHOUT ROWID`,
    ]);
    await runStatements(db, [`CREATE INDEX rate_limits_reset_at ON rate_limits (reset_at)`]);
    await runStatements(db, [
      `CREATE TABLE leases (
      name TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`,
    ]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE leases`.execute(db);
    await sql`DROP TABLE rate_limits`.execute(db);
  },
};

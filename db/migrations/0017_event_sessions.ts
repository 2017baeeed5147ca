import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * The incremental roll-up (decision 0034): for each store day it adds to (today, and yesterday
 * just after midnight), every session already counted and when it first visited, first added to
 * the bag and first reached checkout, so a run asks about its new events' sessions here, in a
 * table of at most two days' sessions, not in the day's raw events. Written by the roll-up only,
 * every 30 s: an index on `events` by session would serve the same question but made each
 * flush of events an order of magnitude slower (docs/perf.md). A row with an empty session key
 * says the day's sessions are all here; rows of a day are deleted once it is recounted whole.
 */
export const eventSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE event_sessions (
      day TEXT NOT NULL,
      session_key TEXT NOT NULL,
      seen_at TEXT,
      bagged_at TEXT,
      checkout_at TEXT,
      PRIMARY KEY (day, session_key)
    ) WITHOUT ROWID`,
    ]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE event_sessions`.execute(db);
  },
};

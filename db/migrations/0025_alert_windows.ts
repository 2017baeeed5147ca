import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Issue 27: alerts by e-mail, at most one per kind per window on every worker and instance. A row
 * per alert kind (a closed list: nothing a stranger can grow): when its window began (the last
 * e-mail), how many alerts of the kind came in since and were held for the next digest, and the
 * last one's words.
 */
export const alertWindows: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE alert_windows (
      kind TEXT PRIMARY KEY,
      window_started_at TEXT NOT NULL,
      held INTEGER NOT NULL DEFAULT 0,
      last_detail TEXT
    ) WITHOUT ROWID`,
    ]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE alert_windows`.execute(db);
  },
};

import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Issue 14 part 4 (decision 0025): what the dashboard's funnel and the drop report count.
 * - `events`: one row per page view, bag add, checkout view, order placed and payment, written by
 *   the server in batches. `session_key` is a keyed hash of the bag's (or signed-in user's)
 *   session id, never an address; null for a visitor without any cookie, whose first page of a
 *   visit (`is_entry`: no Referer from the store itself) is what counts them. No foreign keys:
 *   an event outlives the product or order it names.
 * - `event_hours`: the roll-ups, one count per hour (its start, ISO UTC) and metric ("visitors",
 *   "views", "views:store", "bag_adds", "bagged", "orders:paid", …), kept in (metric, hour) order:
 *   a report reads a few metrics over a range of hours, one run of the table each. Raw events
 *   older than 30 days are deleted once rolled up; the hours stay.
 * - `event_rollup`: one row, the last event id the roll-ups have counted.
 * - Two report indexes: orders by the time they were placed, covering what the summary and the
 *   funnel read (test or not, paid or not, total), and refunds by time, so a 30-day summary over
 *   100,000 orders reads the index alone.
 */
export const events: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      page_kind TEXT,
      session_key TEXT,
      is_entry INTEGER NOT NULL DEFAULT 0,
      product_id INTEGER,
      order_id INTEGER,
      occurred_at TEXT NOT NULL
    )`,
    ]);
    await runStatements(db, [`CREATE INDEX events_occurred_at ON events (occurred_at)`]);
    await runStatements(db, [
      `CREATE TABLE event_hours (
      hour TEXT NOT NULL,
      metric TEXT NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (metric, hour)
    ) WITHOUT ROWID`,
    ]);
    await runStatements(db, [
      `CREATE TABLE event_rollup (
      id INTEGER PRIMARY KEY,
      rolled_to_id INTEGER NOT NULL,
      rolled_at TEXT NOT NULL
    )`,
    ]);
    await runStatements(db, [`CREATE INDEX orders_report ON orders (created_at, is_test, paid_at, total_cents)`]);
    await runStatements(db, [`CREATE INDEX refunds_created_at ON refunds (created_at)`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP INDEX refunds_created_at`.execute(db);
    await sql`DROP INDEX orders_report`.execute(db);
    await sql`DROP TABLE event_rollup`.execute(db);
    await sql`DROP TABLE event_hours`.execute(db);
    await sql`DROP TABLE events`.execute(db);
  },
};

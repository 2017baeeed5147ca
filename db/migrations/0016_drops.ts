import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * The drop report (issue 14 parts 2–3, decision 0026).
 * - `drops`: one row per countdown that is or was the store's launch (T-0 = `countdown_at`). The
 *   waiting room's line resets with each countdown and only its places survive, so the longest the
 *   line got after T-0 (`line_peak`, `line_peak_at`) is kept here when a join makes it longer.
 *   Filled from the countdowns the waiting room has places for and from the current setting.
 * - `sold_out_misses`: a shopper's Process Order refused because a product in the bag had sold
 *   out (the 409), so the report can tell how many reached checkout too late.
 */
export const drops: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE drops (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      countdown_at TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      line_peak INTEGER NOT NULL DEFAULT 0,
      line_peak_at TEXT
    )`,
    ]);
    await runStatements(db, [
      `INSERT INTO drops (countdown_at, created_at)
      SELECT DISTINCT drop_at, drop_at FROM waiting_room_places ORDER BY drop_at`,
    ]);
    await runStatements(db, [
      `INSERT INTO drops (countdown_at, created_at)
      SELECT value, updated_at FROM app_settings
      WHERE key = 'countdown_date' AND value NOT IN (SELECT countdown_at FROM drops)`,
    ]);
    await runStatements(db, [
      `CREATE TABLE sold_out_misses (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id INTEGER REFERENCES products (id) ON DELETE SET NULL,
      product_name TEXT NOT NULL,
      session_id TEXT,
      customer_key TEXT,
      created_at TEXT NOT NULL
    )`,
    ]);
    await runStatements(db, [`CREATE INDEX sold_out_misses_created_at ON sold_out_misses (created_at)`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE sold_out_misses`.execute(db);
    await sql`DROP TABLE drops`.execute(db);
  },
};

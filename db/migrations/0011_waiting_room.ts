import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * The waiting room (decision 0019). Everything lives here, not in a process, so every worker
 * agrees on who is admitted and a restart loses nobody's place.
 * - `waiting_room`: one row, the admin's settings and the admission clock of the current drop
 *   (`drop_at` is the countdown date the row's state belongs to; a new countdown starts afresh).
 *   The admitted count is `admitted_base` plus `admit_per_minute` per minute since
 *   `admitted_since`, unless paused: a pure function of this row and the time.
 * - `waiting_room_places`: one place per browser and drop. `place` is null for the early group
 *   until the draw at T-0.
 */
export const waitingRoom: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE waiting_room (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      enabled INTEGER NOT NULL DEFAULT 1,
      opens_minutes_before INTEGER NOT NULL DEFAULT 15,
      closes_minutes_after INTEGER NOT NULL DEFAULT 120,
      admit_per_minute INTEGER NOT NULL DEFAULT 300,
      pass_minutes INTEGER NOT NULL DEFAULT 15,
      per_address INTEGER NOT NULL DEFAULT 20,
      paused INTEGER NOT NULL DEFAULT 0,
      drop_at TEXT,
      ended INTEGER NOT NULL DEFAULT 0,
      drawn INTEGER NOT NULL DEFAULT 0,
      admitted_base REAL NOT NULL DEFAULT 0,
      admitted_since TEXT
    )`,
    ]);
    await runStatements(db, [`INSERT INTO waiting_room (id) VALUES (1)`]);
    await runStatements(db, [
      `CREATE TABLE waiting_room_places (
      id TEXT PRIMARY KEY,
      drop_at TEXT NOT NULL,
      place INTEGER,
      address TEXT NOT NULL,
      joined_at TEXT NOT NULL,
      admitted_at TEXT,
      UNIQUE (drop_at, place)
    )`,
    ]);
    await runStatements(db, [`CREATE INDEX waiting_room_places_address ON waiting_room_places (drop_at, address)`]);
    await runStatements(db, [`CREATE INDEX waiting_room_places_joined ON waiting_room_places (drop_at, joined_at)`]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE waiting_room_places`.execute(db);
    await sql`DROP TABLE waiting_room`.execute(db);
  },
};

import { sql, type Kysely, type Migration } from "kysely";
import { runStatements } from "./dialect";

/**
 * Issue 26 (decision 0047): a product sold by a verifiable draw instead of a rush.
 * - `draws`: one per product at a time. `seed` is the secret 32 bytes (hex), kept private until
 *   the draw (`site_origin`: the address its e-mailed links use when PUBLIC_URL is unset); `commitment` is its SHA-256, public from creation. `chain` and `entry_count` are the
 *   running hash chain of confirmed entries. `units` is JSON: units to give per size ("" for a
 *   product without sizes). `drawn_at` is written once, by the one process that draws.
 * - `draw_entries`: one per folded identity per draw (UNIQUE), numbered `n` when confirmed.
 *   `place` is the entry's position in the drawn order; `won_at` marks a winner (at the draw or
 *   when a lapsed winner's unit passes down), `claim_expires_at` the end of their hold,
 *   `bag_id` the browser's bag the claim link was first opened with.
 */
export const draws: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `CREATE TABLE draws (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      entries_open_at TEXT NOT NULL,
      entries_close_at TEXT NOT NULL,
      claim_minutes INTEGER NOT NULL CHECK (claim_minutes >= 1),
      units TEXT NOT NULL CHECK (json_valid(units)),
      seed TEXT NOT NULL,
      commitment TEXT NOT NULL,
      chain TEXT NOT NULL,
      entry_count INTEGER NOT NULL DEFAULT 0,
      beacon TEXT,
      drawn_at TEXT,
      site_origin TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
      `CREATE INDEX draws_product ON draws (product_id)`,
      `CREATE TABLE draw_entries (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      draw_id INTEGER NOT NULL REFERENCES draws (id) ON DELETE CASCADE,
      identity_key TEXT NOT NULL,
      email TEXT NOT NULL,
      name TEXT,
      size TEXT NOT NULL,
      email_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      n INTEGER,
      chain TEXT,
      confirmed_at TEXT,
      place INTEGER,
      won_at TEXT,
      claim_expires_at TEXT,
      mailed_at TEXT,
      claimed_at TEXT,
      bag_id TEXT,
      order_id INTEGER REFERENCES orders (id) ON DELETE SET NULL,
      paid_at TEXT,
      lapsed_at TEXT
    )`,
      `CREATE UNIQUE INDEX draw_entries_identity ON draw_entries (draw_id, identity_key)`,
      `CREATE UNIQUE INDEX draw_entries_number ON draw_entries (draw_id, n) WHERE n IS NOT NULL`,
    ]);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TABLE draw_entries`.execute(db);
    await sql`DROP TABLE draws`.execute(db);
  },
};

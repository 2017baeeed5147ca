import { sql, type Kysely, type Migration } from "kysely";

// What the storefront shows comes from these tables; any write to them must reach every worker's
// page cache. Triggers bump the counter inside the writing transaction itself, so no service can
// forget to, and a rolled-back write bumps nothing.
const WATCHED = ["products", "product_images", "app_settings"] as const;
const EVENTS = ["INSERT", "UPDATE", "DELETE"] as const;

/**
 * One counter that says "the public pages may have changed" (decision 0014). Every process reads
 * it at most a few times a second and drops its cached pages when it moves.
 */
export const pageVersion: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`CREATE TABLE page_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`.execute(db);
    await sql`INSERT INTO page_version (id, version) VALUES (1, 0)`.execute(db);
    for (const table of WATCHED) {
      for (const event of EVENTS) {
        await sql`CREATE TRIGGER ${sql.raw(`page_version_${table}_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON ${sql.raw(table)}
          BEGIN UPDATE page_version SET version = version + 1 WHERE id = 1; END`.execute(db);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of WATCHED) {
      for (const event of EVENTS) await sql`DROP TRIGGER IF EXISTS ${sql.raw(`page_version_${table}_${event.toLowerCase()}`)}`.execute(db);
    }
    await sql`DROP TABLE page_version`.execute(db);
  },
};

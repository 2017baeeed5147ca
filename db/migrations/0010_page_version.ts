import { sql, type Kysely, type Migration } from "kysely";
import { isPostgres } from "./dialect";

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
    if (isPostgres(db)) {
      await createPostgresTriggers(db);
      return;
    }
    for (const table of WATCHED) {
      for (const event of EVENTS) {
        await sql`CREATE TRIGGER ${sql.raw(`page_version_${table}_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON ${sql.raw(table)}
          BEGIN UPDATE page_version SET version = version + 1 WHERE id = 1; END`.execute(db);
      }
    }
  },
  async down(db: Kysely<unknown>) {
    const postgres = isPostgres(db);
    for (const table of WATCHED) {
      for (const event of EVENTS) {
        const name = sql.raw(`page_version_${table}_${event.toLowerCase()}`);
        await (postgres ? sql`DROP TRIGGER IF EXISTS ${name} ON ${sql.raw(table)}` : sql`DROP TRIGGER IF EXISTS ${name}`).execute(db);
      }
    }
    if (postgres) await sql`DROP FUNCTION IF EXISTS page_version_bump()`.execute(db);
    await sql`DROP TABLE page_version`.execute(db);
  },
};

/**
 * The same triggers on PostgreSQL, with the same names: a trigger function bumps the counter and
 * also NOTIFYs `page_version`, so a worker that LISTENs can drop its pages at once rather than at
 * its next look at the counter (issue 13; nobody listens yet). FOR EACH ROW as on SQLite: a
 * statement that changes no row (a stock UPDATE that lost its race) bumps nothing.
 */
async function createPostgresTriggers(db: Kysely<unknown>) {
  await sql`CREATE FUNCTION page_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE page_version SET version = version + 1 WHERE id = 1;
      PERFORM pg_notify('page_version', '');
      RETURN NULL;
    END $$`.execute(db);
  for (const table of WATCHED) {
    for (const event of EVENTS) {
      await sql`CREATE TRIGGER ${sql.raw(`page_version_${table}_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON ${sql.raw(table)}
        FOR EACH ROW EXECUTE FUNCTION page_version_bump()`.execute(db);
    }
  }
}

import { sql, type Kysely, type Migration } from "kysely";
import { isPostgres, runStatements } from "./dialect";

/**
 * Two limits the services kept alone, now kept by the database as well.
 * - `draws_product` is UNIQUE: a product has at most one draw. createDraw locks the product's row
 *   and refuses a second ("alreadySet"); the index holds the rule for any writer the service does
 *   not see (a script, a future door). A store that somehow has two draws for one product stops
 *   here with their ids, rather than dropping either: which one to keep is the admin's call.
 * - On PostgreSQL, `events.id` and `event_rollup.rolled_to_id` become bigint. An event is written
 *   per page view and ids are never reused (old rows are deleted once rolled up), so a 4-byte id
 *   ran out after 2,147,483,647 views: about 25 days at 1,000 views a second, or a year at 68 a second,
 *   and then every page view's insert failed. SQLite's INTEGER is already
 *   8 bytes. pg reads bigint back as a number (db/postgres.ts), so the services see no change.
 *   On PostgreSQL the type change rewrites the events table under an exclusive lock: minutes on a
 *   large table, so deploy it outside a drop.
 */
export const drawPerProductAndEventIds: Migration = {
  async up(db: Kysely<unknown>) {
    const { rows } = await sql<{ productId: number; ids: string }>`
      SELECT product_id AS "productId", ${isPostgres(db) ? sql`string_agg(id::text, ', ' ORDER BY id)` : sql`group_concat(id, ', ')`} AS ids
      FROM draws GROUP BY product_id HAVING count(*) > 1`.execute(db);
    if (rows.length > 0) {
      const list = rows.map((row) => `product ${row.productId}: draws ${row.ids}`).join("; ");
      throw new Error(`A product may have one draw; delete the extra draws before upgrading (${list}).`);
    }
    await runStatements(db, [`DROP INDEX draws_product`, `CREATE UNIQUE INDEX draws_product ON draws (product_id)`]);
    if (isPostgres(db)) {
      await sql`ALTER TABLE events ALTER COLUMN id TYPE bigint`.execute(db);
      await sql`ALTER TABLE event_rollup ALTER COLUMN rolled_to_id TYPE bigint`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    if (isPostgres(db)) {
      await sql`ALTER TABLE event_rollup ALTER COLUMN rolled_to_id TYPE integer`.execute(db);
      await sql`ALTER TABLE events ALTER COLUMN id TYPE integer`.execute(db);
    }
    await runStatements(db, [`DROP INDEX draws_product`, `CREATE INDEX draws_product ON draws (product_id)`]);
  },
};

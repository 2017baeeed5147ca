import { sql, type Kysely, type Migration } from "kysely";
import { isPostgres, runStatements } from "./dialect";

/**
 * Page versions per product (decision 0027, refining 0014). `page_version.version` still moves on
 * every setting write and means "every page". A product's own writes (and its images') no longer
 * move it: they move `page_version.list_version` (the pages that list every product) and stamp that
 * product's row in `product_page_version` with the new list version (its own page). So a hold on
 * one product leaves every other product's cached page alone.
 *
 * A stock movement that changes nothing a page shows bumps nothing: the pages show a product's
 * stock only from LOW_STOCK (10) down ("Only 3 left", sold out), so an UPDATE that moved the stock
 * while it stayed above 10 and did not touch `updated_at` (which every edit sets, and no hold,
 * release or sale does) is left to the pages' one-second life. Such pages show no number to be
 * stale, and stock shown is never older than a second anyway.
 */
const LOW_STOCK = 10;
const STOCK_MOVED_UNSEEN = `OLD.inventory <> NEW.inventory AND OLD.inventory > ${LOW_STOCK} AND NEW.inventory > ${LOW_STOCK} AND OLD.updated_at IS NEW.updated_at`;

// [table, event, the product's id in the row, a condition]
const TRIGGERS: [string, "INSERT" | "UPDATE" | "DELETE", string, string | null][] = [
  ["products", "INSERT", "NEW.id", null],
  ["products", "UPDATE", "NEW.id", `NOT (${STOCK_MOVED_UNSEEN})`],
  ["products", "DELETE", "OLD.id", null],
  ["product_images", "INSERT", "NEW.product_id", null],
  ["product_images", "UPDATE", "NEW.product_id", null],
  ["product_images", "DELETE", "OLD.product_id", null],
];
const triggerName = (table: string, event: string) => `product_page_version_${table}_${event.toLowerCase()}`;
// What 0010 put on these two tables: one bump of the every-page version.
const OLD_TRIGGERS = TRIGGERS.map(([table, event]) => [table, event, `page_version_${table}_${event.toLowerCase()}`] as const);

export const pageVersionsPerProduct: Migration = {
  async up(db: Kysely<unknown>) {
    await runStatements(db, [
      `ALTER TABLE page_version ADD COLUMN list_version INTEGER NOT NULL DEFAULT 0`,
      `CREATE TABLE product_page_version (product_id INTEGER PRIMARY KEY, version INTEGER NOT NULL)`,
    ]);
    const postgres = isPostgres(db);
    for (const [table, , name] of OLD_TRIGGERS) {
      await (postgres ? sql`DROP TRIGGER ${sql.raw(name)} ON ${sql.raw(table)}` : sql`DROP TRIGGER ${sql.raw(name)}`).execute(db);
    }
    if (postgres) {
      await createPostgresTriggers(db);
      return;
    }
    for (const [table, event, id, when] of TRIGGERS) {
      await sql
        .raw(
          `CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table}${when ? ` WHEN ${when}` : ""}
          BEGIN
            UPDATE page_version SET list_version = list_version + 1 WHERE id = 1;
            INSERT INTO product_page_version (product_id, version) VALUES (${id}, (SELECT list_version FROM page_version WHERE id = 1))
              ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
          END`,
        )
        .execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    const postgres = isPostgres(db);
    for (const [table, event] of TRIGGERS) {
      const name = sql.raw(triggerName(table, event));
      await (postgres ? sql`DROP TRIGGER IF EXISTS ${name} ON ${sql.raw(table)}` : sql`DROP TRIGGER IF EXISTS ${name}`).execute(db);
    }
    if (postgres) await sql`DROP FUNCTION IF EXISTS product_page_version_bump()`.execute(db);
    for (const [table, event, name] of OLD_TRIGGERS) {
      await (
        postgres
          ? sql`CREATE TRIGGER ${sql.raw(name)} AFTER ${sql.raw(event)} ON ${sql.raw(table)} FOR EACH ROW EXECUTE FUNCTION page_version_bump()`
          : sql`CREATE TRIGGER ${sql.raw(name)} AFTER ${sql.raw(event)} ON ${sql.raw(table)}
          BEGIN UPDATE page_version SET version = version + 1 WHERE id = 1; END`
      ).execute(db);
    }
    await sql`DROP TABLE product_page_version`.execute(db);
    await sql`ALTER TABLE page_version DROP COLUMN list_version`.execute(db);
  },
};

/**
 * The same triggers on PostgreSQL, with the same names and conditions (IS becomes IS NOT DISTINCT
 * FROM). The function NOTIFYs `page_version` as 0010's does, with `product:<id>` as the payload,
 * so a worker that LISTENs can drop that product's page and the lists at once.
 */
async function createPostgresTriggers(db: Kysely<unknown>) {
  await sql`CREATE FUNCTION product_page_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      product integer;
      listed integer;
    BEGIN
      IF TG_OP = 'DELETE' THEN
        product := (to_jsonb(OLD) ->> TG_ARGV[0])::integer;
      ELSE
        product := (to_jsonb(NEW) ->> TG_ARGV[0])::integer;
      END IF;
      UPDATE page_version SET list_version = list_version + 1 WHERE id = 1 RETURNING list_version INTO listed;
      INSERT INTO product_page_version (product_id, version) VALUES (product, listed)
        ON CONFLICT (product_id) DO UPDATE SET version = excluded.version;
      PERFORM pg_notify('page_version', 'product:' || product);
      RETURN NULL;
    END $$`.execute(db);
  for (const [table, event, id, when] of TRIGGERS) {
    const column = id.split(".")[1]!;
    const condition = when ? ` WHEN (${when.replace(/ IS /g, " IS NOT DISTINCT FROM ")})` : "";
    await sql
      .raw(
        `CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table} FOR EACH ROW${condition}
        EXECUTE FUNCTION product_page_version_bump('${column}')`,
      )
      .execute(db);
  }
}

// Migrations already applied to a store are never run again there, so a fresh SQLite store must
// get exactly the DDL an old one got: the migrations are being made portable (issue 13), and
// this pins, statement by statement, what each one leaves in sqlite_master on SQLite.
import { sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { migrateToLatest, openDatabase } from "#db/client";

const db = openDatabase(":memory:");
afterAll(() => db.destroy());

it("leaves the same schema on SQLite as the migrations always have", async () => {
  await migrateToLatest(db);
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    SELECT type, name, sql FROM sqlite_master
    WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY type, name`.execute(db);
  const dump = rows.map((row) => `-- ${row.type} ${row.name}\n${row.sql ?? "(automatic)"};\n`).join("\n");
  await expect(dump).toMatchFileSnapshot("__snapshots__/sqlite-schema.sql");
});

// The PostgreSQL harness works: Kysely's PostgresDialect on a pg Pool reaches the run's throwaway
// server, in a database of this file's own. Nothing of the store runs on PostgreSQL yet.
import { sql, type Generated } from "kysely";
import { afterAll, expect, it } from "vitest";
import { describeOnPostgres, kyselyOn, postgresDatabaseForFile } from "../setup/postgres-db";

describeOnPostgres("PostgreSQL harness", () => {
  const database = postgresDatabaseForFile();
  const opened: { destroy(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const db of opened) await db.destroy();
  });

  it("runs a query through Kysely's PostgresDialect on a pg Pool", async () => {
    const db = kyselyOn<{ items: { id: Generated<number>; name: string } }>(database.url);
    opened.push(db);
    const { rows } = await sql<{ two: number; version: string }>`SELECT 1 + 1 AS two, current_setting('server_version') AS version`.execute(
      db,
    );
    expect(rows[0]!.two).toBe(2);
    expect(rows[0]!.version).toMatch(/^\d+/);

    await db.schema
      .createTable("items")
      .addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
      .addColumn("name", "text", (c) => c.notNull())
      .execute();
    const inserted = await db.insertInto("items").values({ name: "tee" }).returning(["id", "name"]).executeTakeFirstOrThrow();
    expect(inserted).toEqual({ id: 1, name: "tee" });
  });

  it("compares text byte by byte, as SQLite does (ISO instants are compared as text)", async () => {
    const db = kyselyOn(database.url);
    opened.push(db);
    const { rows } = await sql<{ collation: string; before: boolean }>`
      SELECT datcollate AS collation, '2026-11-24T23:59:59.999Z' < '2026-11-25T00:00:00.000Z' AS before
      FROM pg_database WHERE datname = current_database()`.execute(db);
    expect(rows[0]).toEqual({ collation: "C", before: true });
  });
});

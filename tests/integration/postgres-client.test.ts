// openDatabase chooses PostgreSQL for a postgres target: Kysely's PostgresDialect on a pg Pool of
// the configured size, the store's plugins, counts as numbers (as SQLite gives them). This opens
// the engine only; the store's migrations and services do not run on it yet (docs/postgres-plan.md).
import { sql } from "kysely";
import pg from "pg";
import { afterAll, expect, it } from "vitest";
import { engineOf, openDatabase, preparedOn, type Db } from "#db/client";
import { ADVISORY_LOCK, AdvisoryLeader, closeWithDatabase, listenFor } from "#db/postgres";
import { describeOnPostgres, postgresDatabaseForFile } from "../setup/postgres-db";

describeOnPostgres("openDatabase on PostgreSQL", () => {
  const database = postgresDatabaseForFile();
  let db: Db | undefined;
  afterAll(async () => {
    await db?.destroy();
  });

  it("opens a pool through Kysely's PostgresDialect, with snake_case columns read as camelCase", async () => {
    db = openDatabase({ engine: "postgres", url: database.url, poolSize: 2 });
    expect(engineOf(db)).toBe("postgres");
    await sql`CREATE TABLE page_version (id integer PRIMARY KEY, version integer NOT NULL)`.execute(db);
    await db.insertInto("pageVersion").values({ id: 1, version: 7 }).execute();
    expect(await db.selectFrom("pageVersion").selectAll().execute()).toEqual([{ id: 1, version: 7 }]);
    // count(*) is bigint on PostgreSQL; pg would give "1", SQLite gives 1.
    const { n } = await db
      .selectFrom("pageVersion")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(n).toBe(1);
    const pool = await sql<{ n: number }>`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()`.execute(db);
    expect(pool.rows[0]!.n).toBeLessThanOrEqual(2);
  });

  it("says plainly that synchronous prepared statements are SQLite-only", () => {
    expect(() => preparedOn(db!, "SELECT 1")).toThrow("preparedOn() is SQLite-only.");
  });

  // pg-pool's end() resolves once it has asked its connections to close, while their server
  // processes live on for a moment: a DROP DATABASE … WITH (FORCE) then (every test file's
  // teardown) killed them, and the pool reported 57P01 "terminating connection due to
  // administrator command" on a database thought closed.
  it("destroy() resolves only when the server has no connection of the pool left", async () => {
    const monitor = new pg.Client({ connectionString: database.url });
    await monitor.connect();
    const others = async () =>
      (
        await monitor.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
      ).rows[0]!.n;
    try {
      await db?.destroy();
      db = undefined;
      expect(await others()).toBe(0);
      for (let round = 0; round < 10; round++) {
        const pool = openDatabase({ engine: "postgres", url: database.url, poolSize: 4 });
        // Four at once, so that the pool holds four connections.
        await Promise.all([1, 2, 3, 4].map(() => sql`SELECT pg_sleep(0.02)`.execute(pool)));
        expect(await others()).toBe(4);
        await pool.destroy();
        expect(await others(), `round ${round}`).toBe(0);
      }

      // Connections of their own tied to the database (a leader's lock, a LISTEN) end with it too.
      const tied = openDatabase({ engine: "postgres", url: database.url, poolSize: 1 });
      await sql`SELECT 1`.execute(tied);
      const leader = new AdvisoryLeader(database.url, ADVISORY_LOCK.sweeper);
      expect(await leader.lead()).toBe(true);
      closeWithDatabase(tied, () => leader.resign());
      let heard = 0;
      closeWithDatabase(
        tied,
        listenFor(database.url, "page_version", () => heard++),
      );
      await expect.poll(() => heard).toBe(1); // listening (it calls once on connecting)
      expect(await others()).toBe(3);
      await tied.destroy();
      expect(await others()).toBe(0);
    } finally {
      await monitor.end();
    }
  });
});

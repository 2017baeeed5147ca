// `DATABASE_URL=postgres://… npm start` on an empty PostgreSQL database, two instances starting at
// the same moment (`npm start` with two workers, and a single `server.js`): both serve the seeded
// catalogue over HTTP, the database was migrated and seeded once, it holds the same catalogue an
// SQLite store seeds, and the start-up banner names the server without its password. Spawns the
// built store (built here first when stale, so the two starts do not both build).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrateToLatest, openDatabase, type Db } from "#db/client";
import { migrations } from "#db/migrations";
import { prepareDatabase } from "#server/boot";
import { loadConfig } from "#server/config";
import { systemClock } from "#server/context";
import { listVisibleProducts } from "#server/services/catalog/catalog";
import { mockServer } from "../mocks/server";
import { getFresh, startBuiltStore, type BuiltStore } from "../setup/built-store";
import { TMP_DIR } from "../setup/paths";
import { describeOnPostgres, postgresDatabaseForFile } from "../setup/postgres-db";

const PASSWORD = "never-in-the-log-7f3a";

/** The database's URL with a password in it (the test server trusts loopback, so any password does). */
function withPassword(url: string): string {
  const target = new URL(url);
  target.password = PASSWORD;
  return target.toString();
}

type CatalogueRow = { name: string; priceCents: number; inventory: number; isVisible: number; isComingSoon: number };

async function catalogueOf(db: Db): Promise<CatalogueRow[]> {
  return db.selectFrom("products").select(["name", "priceCents", "inventory", "isVisible", "isComingSoon"]).orderBy("name").execute();
}

describeOnPostgres("the store on PostgreSQL", () => {
  const database = postgresDatabaseForFile();
  const run = `pg-store-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const dirs = [path.join(TMP_DIR, `${run}-a`), path.join(TMP_DIR, `${run}-b`)];
  let stores: BuiltStore[] = [];
  let db: Db;

  beforeAll(async () => {
    // Only the stores on loopback are talked to: no vendor to intercept.
    mockServer.close();
    for (const dir of dirs) fs.mkdirSync(dir, { recursive: true });
    const env = { DATABASE_URL: withPassword(database.url), SESSION_SECRET: "pg-store-secret" };
    const started = await Promise.allSettled([
      startBuiltStore({ dataDir: dirs[0]!, env: { ...env, WEB_CONCURRENCY: "2" } }),
      startBuiltStore({ dataDir: dirs[1]!, env: { ...env, WEB_CONCURRENCY: "1" } }),
    ]);
    stores = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
    const failed = started.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
    db = openDatabase({ engine: "postgres", url: database.url, poolSize: 2 });
  }, 600_000);

  afterAll(async () => {
    await Promise.all(stores.map((store) => store.stop()));
    await db?.destroy();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("serves the seeded catalogue from both instances, seeded once", async () => {
    const rows = await catalogueOf(db);
    expect(rows.length).toBeGreaterThan(3);
    // Seeded by exactly one of the two: each product once, one set of settings, one admin.
    expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
    const settings = await db.selectFrom("appSettings").select(["key"]).execute();
    expect(new Set(settings.map((row) => row.key)).size).toBe(settings.length);
    const admins = await db.selectFrom("users").select("username").where("isAdmin", "=", 1).execute();
    expect(admins).toEqual([{ username: "admin" }]);
    const applied = await db
      .selectFrom("kyselyMigration" as never)
      .select("name" as never)
      .execute();
    expect(applied).toHaveLength(Object.keys(migrations).length);

    const config = loadConfig({ DATA_DIR: dirs[0]!, SESSION_SECRET: "s", NODE_ENV: "test", DATABASE_URL: database.url });
    const visible = await listVisibleProducts({ db, config, clock: systemClock });
    for (const store of stores) {
      const { status, body } = await getFresh(`${store.baseUrl}/api/products`);
      expect(status).toBe(200);
      const names = (JSON.parse(body) as { name: string }[]).map((product) => product.name).sort();
      expect(names).toEqual(visible.map((row) => row.name).sort());
      expect(names.length).toBeGreaterThan(0);
      const page = await getFresh(`${store.baseUrl}/store`);
      expect(page.status).toBe(200);
      expect(page.body).toContain(visible[0]!.name.replace(/&/g, "&amp;"));
    }
  });

  it("holds the same catalogue an SQLite store seeds", async () => {
    const dir = path.join(TMP_DIR, `${run}-sqlite`);
    const config = loadConfig({ DATA_DIR: dir, SESSION_SECRET: "s", NODE_ENV: "test", DATABASE_URL: ":memory:" });
    const sqlite = openDatabase(config.database);
    try {
      await migrateToLatest(sqlite);
      await prepareDatabase({ db: sqlite, config, clock: systemClock });
      expect(await catalogueOf(db)).toEqual(await catalogueOf(sqlite));
    } finally {
      await sqlite.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("prints PostgreSQL's host, port and database at start-up, never the password", () => {
    const { hostname, port, pathname } = new URL(database.url);
    const banner = stores.map((store) => store.log()).join("\n");
    expect(banner).toContain(`Store ready on http://localhost:`);
    expect(banner).toContain(`(database: PostgreSQL ${hostname}:${port}, database ${pathname.slice(1)}`);
    expect(banner).not.toContain(PASSWORD);
    // Exactly one of the two seeded.
    expect(banner.match(/Seeded the demo catalogue/g)).toHaveLength(1);
  });
});

describeOnPostgres("preparing one PostgreSQL database from several processes at once", () => {
  const database = postgresDatabaseForFile();
  const dir = path.join(TMP_DIR, `pg-prepare-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("migrates and seeds once, whichever starts first", async () => {
    // Four instances' pools (each its own connections, as separate processes have).
    const config = loadConfig({ DATA_DIR: dir, SESSION_SECRET: "s", NODE_ENV: "test", DATABASE_URL: database.url });
    const pools = Array.from({ length: 4 }, () => openDatabase({ engine: "postgres", url: database.url, poolSize: 3 }));
    try {
      const reports = await Promise.all(pools.map((db) => prepareDatabase({ db, config, clock: systemClock })));
      expect(reports.filter((report) => report.seeded)).toHaveLength(1);
      expect(reports.filter((report) => report.migrations.length > 0)).toHaveLength(1);
      expect(reports.filter((report) => report.adminCreated)).toHaveLength(1);
      const rows = await catalogueOf(pools[0]!);
      expect(new Set(rows.map((row) => row.name)).size).toBe(rows.length);
      const images = await pools[0]!.selectFrom("productImages").select("id").where("isPrimary", "=", 1).execute();
      expect(images).toHaveLength(rows.length);
    } finally {
      await Promise.all(pools.map((db) => db.destroy()));
    }
  }, 120_000);
});

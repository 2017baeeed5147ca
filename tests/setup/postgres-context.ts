import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { migrateToLatest, openDatabase } from "#db/client";
import { loadConfig } from "#server/config";
import { manualClock, type TestContext } from "./context";
import { TMP_DIR } from "./paths";
import { postgresDatabaseForFile } from "./postgres-db";

/**
 * createTestContext's twin on PostgreSQL, whatever STORE_TEST_DB says: a fresh database on the
 * run's server, migrated, with its own data directory and a manual clock. The configuration is
 * read as for SQLite;
 * only `database` and `db` differ. For tests that only make sense on PostgreSQL (real concurrency
 * between connections of one process). Use inside a
 * `describeOnPostgres` block; `ctx` is filled in beforeAll.
 */
export function createPostgresTestContext(env: Record<string, string> = {}): { readonly ctx: TestContext } {
  const database = postgresDatabaseForFile();
  let ctx: TestContext | undefined;
  const dir = path.join(TMP_DIR, `pgctx-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  beforeAll(async () => {
    fs.mkdirSync(dir, { recursive: true });
    const loaded = loadConfig({ DATA_DIR: dir, SESSION_SECRET: "test-secret", NODE_ENV: "test", ...env });
    const config = { ...loaded, database: { engine: "postgres" as const, url: database.url, poolSize: 4 } };
    const db = openDatabase(config.database);
    await migrateToLatest(db);
    ctx = { db, config, clock: manualClock() };
  });
  afterAll(async () => {
    await ctx?.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get ctx() {
      if (!ctx) throw new Error("createPostgresTestContext(): the context is made in beforeAll.");
      return ctx;
    },
  };
}

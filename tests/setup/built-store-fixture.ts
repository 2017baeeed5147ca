import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { Db } from "#db/client";
import { mockServer } from "../mocks/server";
import { startBuiltStore, type BuiltStore } from "./built-store";
import { builtStoreDatabase } from "./built-store-database";
import { TMP_DIR } from "./paths";

type Env = Record<string, string>;

/**
 * `npm start` for one test file: a data folder and database of the file's own, the built store
 * started on them with two workers (and `env`), a connection of the test's own, and all of it
 * stopped and removed when the file ends. Call at the top of the file. `env` runs once, in the
 * hook (it may pick a free port); `restart` starts the store again on the same data and settings,
 * after a test stopped or killed it.
 */
export function builtStoreForFile(name: string, env: () => Env | Promise<Env> = () => ({})) {
  const database = builtStoreDatabase();
  const dataDir = path.join(TMP_DIR, `${name}-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
  let settings: Env = {};
  let store: BuiltStore | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    // Only the store on loopback is talked to: its processes use their local integrations, so
    // there is no vendor for msw to intercept.
    mockServer.close();
    fs.mkdirSync(dataDir, { recursive: true });
    settings = { WEB_CONCURRENCY: "2", ...(await env()), ...database.env() };
    store = await startBuiltStore({ dataDir, env: settings });
    db = database.open(dataDir);
  }, 330_000);
  afterAll(async () => {
    await store?.stop();
    await db?.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("builtStoreForFile(): the store starts in beforeAll; use it inside a test or hook.");
    return value;
  };
  return {
    engine: database.engine,
    dataDir,
    get store(): BuiltStore {
      return started(store);
    },
    get db(): Db {
      return started(db);
    },
    async restart(): Promise<BuiltStore> {
      store = await startBuiltStore({ dataDir, env: settings });
      return store;
    },
  };
}

import path from "node:path";
import { openDatabase, type DatabaseTarget, type Db } from "#db/client";
import { TEST_ENGINE } from "./context";
import { postgresDatabaseForFile } from "./postgres-db";

/**
 * The database a store spawned by startBuiltStore runs on: the SQLite file in its data folder, or
 * under STORE_TEST_DB=postgres an empty PostgreSQL database of this file's own, which the store
 * migrates and seeds as `npm start` does. Call at the top of a file, before its own beforeAll (on
 * PostgreSQL the database is made in a hook); pass `env()` to startBuiltStore.
 */
export function builtStoreDatabase() {
  const postgres = TEST_ENGINE === "postgres" ? postgresDatabaseForFile() : null;
  const target = (dataDir: string): DatabaseTarget =>
    postgres ? { engine: "postgres", url: postgres.url, poolSize: 4 } : { engine: "sqlite", file: path.join(dataDir, "store.db") };
  return {
    engine: TEST_ENGINE,
    /** What the store's environment needs to run on this database (nothing for SQLite: DATA_DIR says it). */
    env: (): Record<string, string> => (postgres ? { DATABASE_URL: postgres.url } : {}),
    target,
    /** A connection of the test's own, as another process would have. */
    open: (dataDir: string): Db => openDatabase(target(dataDir)),
  };
}

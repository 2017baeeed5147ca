import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { CamelCasePlugin, Kysely, Migrator, type MigrationProvider } from "kysely";
import { ImmediateSqliteDialect } from "./immediate-transactions";
import { migrations } from "./migrations";
import type { DB } from "./schema";

export type Db = Kysely<DB>;

const connections = new WeakMap<Db, Database.Database>();

/**
 * The better-sqlite3 connection under a Kysely instance, for the few reads on every cached page
 * hit: a statement prepared once and run synchronously costs microseconds, where Kysely compiles
 * and SQLite prepares the query again on every call.
 */
export function sqliteOf(db: Db): Database.Database {
  const sqlite = connections.get(db);
  if (!sqlite) throw new Error("Not a database opened by openDatabase().");
  return sqlite;
}

/** A statement prepared once per connection. */
export function preparedOn<Row>(db: Db, cache: WeakMap<object, Database.Statement>, text: string) {
  const sqlite = sqliteOf(db);
  let statement = cache.get(sqlite);
  if (!statement) {
    statement = sqlite.prepare(text);
    cache.set(sqlite, statement);
  }
  return statement as Database.Statement<unknown[], Row>;
}

/**
 * Opens (creating if needed) the SQLite file with the settings a busy store needs, whether one
 * process or several workers share the file: WAL lets readers go on while one writer writes.
 */
export function openDatabase(file: string): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  // Writers, in this process or another worker, queue for up to 5 s rather than failing at once
  // with SQLITE_BUSY (transactions begin IMMEDIATE so that the wait applies to them too).
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: sqlite }),
    plugins: [new CamelCasePlugin()],
  });
  connections.set(db, sqlite);
  return db;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { CamelCasePlugin, Kysely, Migrator, type MigrationProvider } from "kysely";
import { ImmediateSqliteDialect } from "./immediate-transactions";
import { migrations } from "./migrations";
import type { DB } from "./schema";
import { withStatementCache } from "./statement-cache";

export type Db = Kysely<DB>;

const connections = new WeakMap<Db, ReturnType<typeof withStatementCache>>();

/**
 * A statement on the connection under a Kysely instance, prepared once (the same cache Kysely's
 * queries use), for the few reads on every cached page hit: run synchronously it costs
 * microseconds, where Kysely compiles the query and awaits its driver on every call.
 */
export function preparedOn<Row>(db: Db, text: string) {
  const sqlite = connections.get(db);
  if (!sqlite) throw new Error("Not a database opened by openDatabase().");
  return sqlite.prepare(text) as unknown as Database.Statement<unknown[], Row>;
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
  const cached = withStatementCache(sqlite);
  const db = new Kysely<DB>({
    dialect: new ImmediateSqliteDialect({ database: cached }),
    plugins: [new CamelCasePlugin()],
  });
  connections.set(db, cached);
  return db;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { CamelCasePlugin, Kysely, Migrator, type MigrationProvider } from "kysely";
import { migrations } from "./migrations";
import { ADVISORY_LOCK, openPostgres, postgresPoolStats, whileHoldingAdvisoryLock } from "./postgres";
import type { DB } from "./schema";
import { StoreSqliteDialect, type SqliteWriteStats } from "./sqlite-dialect";
import { withStatementCache } from "./statement-cache";

export type Db = Kysely<DB>;

/**
 * Which database to open: an SQLite file (the default, one machine), or a PostgreSQL server
 * (several machines). server/config.ts makes one from DATABASE_URL.
 */
export type DatabaseTarget = { engine: "sqlite"; file: string } | { engine: "postgres"; url: string; poolSize: number };

const targets = new WeakMap<Db, DatabaseTarget>();

/** What a database opened by openDatabase was opened on (for the few places that must differ). */
export function targetOf(db: Db): DatabaseTarget {
  const target = targets.get(db);
  if (!target) throw new Error("Not a database opened by openDatabase().");
  return target;
}

/** The engine under a database opened by openDatabase. */
export function engineOf(db: Db): DatabaseTarget["engine"] {
  return targetOf(db).engine;
}

/**
 * Runs `fn` (migrations, the seed, the first admin) in one process at a time among all that share
 * the database. On PostgreSQL several instances may start at once against one server: an advisory
 * lock held around `fn` makes the others wait, then find the work done. On SQLite the file is on
 * one machine, where `npm start`'s primary prepares before forking (decision 0015) and every
 * transaction begins IMMEDIATE: nothing is added there.
 */
export async function preparingAlone<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  const target = targetOf(db);
  if (target.engine === "sqlite") return fn();
  return whileHoldingAdvisoryLock(target.url, ADVISORY_LOCK.prepare, fn);
}

const connections = new WeakMap<Db, ReturnType<typeof withStatementCache>>();

/**
 * A read on the reading connection under a Kysely instance, prepared once (the same cache Kysely's
 * lone SELECTs use), for the few reads on every cached page hit: run synchronously it costs
 * microseconds, where Kysely compiles the query and awaits its driver on every call. Being the
 * reading connection, it sees what is committed, never another request's transaction half done.
 */
export function preparedOn<Row>(db: Db, text: string) {
  const sqlite = connections.get(db);
  if (!sqlite) {
    // On PostgreSQL every query is asynchronous: callers must move to Kysely (docs/postgres-plan.md).
    throw new Error(targets.get(db)?.engine === "postgres" ? "preparedOn() is SQLite-only." : "Not a database opened by openDatabase().");
  }
  return sqlite.prepare(text) as unknown as Database.Statement<unknown[], Row>;
}

/**
 * Opens the store's database: a path (or a DatabaseTarget for SQLite) opens an SQLite file, a
 * PostgreSQL target a pool on that server.
 */
export function openDatabase(target: string | DatabaseTarget): Db {
  if (typeof target !== "string" && target.engine === "postgres") {
    const db = openPostgres(target.url, target.poolSize);
    targets.set(db, target);
    return db;
  }
  const file = typeof target === "string" ? target : target.file;
  const db = openSqlite(file);
  targets.set(db, { engine: "sqlite", file });
  return db;
}

/**
 * Opens (creating if needed) the SQLite file with the settings a busy store needs, whether one
 * process or several workers share the file: WAL lets readers go on while one writer writes.
 */
function openSqlite(file: string): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  // Writers, in this process or another worker, queue for up to 5 s rather than failing at once
  // with SQLITE_BUSY (transactions begin IMMEDIATE so that the wait applies to them too).
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const writer = withStatementCache(sqlite);
  // Lone SELECTs read on a connection of their own (db/sqlite-dialect.ts); an in-memory database
  // is private to its one connection.
  let reader = writer;
  if (file !== ":memory:") {
    const reading = new Database(file);
    reading.pragma("busy_timeout = 5000");
    reading.pragma("query_only = ON");
    reader = withStatementCache(reading);
  }
  const dialect = new StoreSqliteDialect({ writer, reader: reader === writer ? undefined : reader });
  const db = new Kysely<DB>({ dialect, plugins: [new CamelCasePlugin()] });
  connections.set(db, reader);
  sqliteStats.set(db, dialect.stats);
  return db;
}

const sqliteStats = new WeakMap<Db, SqliteWriteStats>();

/** How the engine is coping, for the metrics: PostgreSQL's pool, or SQLite's waits for the write lock. */
export type DatabaseStats =
  ({ engine: "postgres" } & NonNullable<ReturnType<typeof postgresPoolStats>>) | ({ engine: "sqlite" } & SqliteWriteStats);

export function databaseStats(db: Db): DatabaseStats | null {
  const sqlite = sqliteStats.get(db);
  if (sqlite) return { engine: "sqlite", ...sqlite };
  const pool = postgresPoolStats(db);
  return pool ? { engine: "postgres", ...pool } : null;
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** The store's migrations this database has not run (empty when its schema is current). Throws when the database does not answer. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const known = await new Migrator({ db, provider }).getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

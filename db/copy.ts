import fs from "node:fs";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { migrateToLatest, openDatabase, type DatabaseTarget } from "./client";
import { isPostgres } from "./engine";
import { migrations } from "./migrations";
import { openPostgres } from "./postgres";

/**
 * `npm run db:copy`: moves a store from one database to another (SQLite → PostgreSQL, or back),
 * every table, ids kept (decision 0023). The target is migrated first and must hold no rows; the
 * copy is one transaction on the target, so a failure leaves it as empty as it was.
 */

/** A copy that cannot be made; its message is for the person who ran the command. */
export class CopyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CopyError";
  }
}

export interface CopyResult {
  /** Rows copied per table, in the order they were copied. */
  tables: { table: string; rows: number }[];
  /** `table.column` of every identity sequence set after the copy (PostgreSQL targets only). */
  sequences: string[];
  /** Migrations the target needed before the copy. */
  migrated: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: the copy reads the catalog, not db/schema.ts
type AnyDb = Kysely<any>;

/** A database named for a person: the file, or the server and database without the password. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.engine === "sqlite") return target.file;
  try {
    const url = new URL(target.url);
    return `postgres://${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`;
  } catch {
    return "a PostgreSQL URL that cannot be read";
  }
}

/** The rows per batch: large enough to be quick, small enough for both engines' parameter limits. */
const PARAMETERS_PER_BATCH = 20_000;

/**
 * Copies every table of `from` into `to`, parents before children, in batches, inside one
 * transaction on the target (and one snapshot of the source), keeping every id; then sets
 * PostgreSQL's identity sequences past the highest id. Migration bookkeeping (`kysely_migration*`)
 * is not copied: the target's own migrations decide it, and the source must be at the same ones.
 */
export async function copyDatabase(
  from: DatabaseTarget,
  to: DatabaseTarget,
  options: { onTable?: (table: string, rows: number) => void; batchRows?: number } = {},
): Promise<CopyResult> {
  if (sameDatabase(from, to)) throw new CopyError("--from and --to name the same database.");
  const source = await openSource(from);
  try {
    await checkSourceMigrations(source.db, from);
    const target = openTarget(to);
    try {
      return await copyInto(source, target, to, options);
    } finally {
      await target.destroy();
    }
  } finally {
    await source.destroy();
  }
}

function sameDatabase(a: DatabaseTarget, b: DatabaseTarget) {
  if (a.engine === "sqlite" && b.engine === "sqlite") return a.file === b.file && a.file !== ":memory:";
  return a.engine === "postgres" && b.engine === "postgres" && describeTarget(a) === describeTarget(b);
}

interface Source {
  db: AnyDb;
  destroy(): Promise<void>;
}

/**
 * The source, opened so as to change nothing: SQLite read-only (no WAL switch, no file made where
 * there was none), PostgreSQL in a read-only transaction later.
 */
async function openSource(from: DatabaseTarget): Promise<Source> {
  let db: AnyDb;
  if (from.engine === "sqlite") {
    if (from.file === ":memory:") throw new CopyError("--from names an in-memory database: there is nothing to copy.");
    if (!fs.existsSync(from.file)) throw new CopyError(`There is no SQLite database at ${from.file}.`);
    if (fs.statSync(from.file).isDirectory()) throw new CopyError(`${from.file} is a directory, not an SQLite database.`);
    let file: Database.Database;
    try {
      file = new Database(from.file, { readonly: true, fileMustExist: true });
      file.pragma("busy_timeout = 5000");
    } catch (error) {
      throw new CopyError(`Cannot open the SQLite database at ${from.file}: ${(error as Error).message}.`);
    }
    db = new Kysely({ dialect: new SqliteDialect({ database: file }) });
  } else {
    db = openPostgres(from.url, 1).withoutPlugins();
  }
  try {
    await reachable(db, from, "source");
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, destroy: () => db.destroy() };
}

function openTarget(to: DatabaseTarget): AnyDb {
  if (to.engine === "sqlite" && to.file === ":memory:")
    throw new CopyError("--to names an in-memory database, which ends with the command.");
  if (to.engine === "sqlite" && fs.existsSync(to.file) && fs.statSync(to.file).isDirectory()) {
    throw new CopyError(`${to.file} is a directory; give --to the path of an SQLite file.`);
  }
  try {
    // The store's own settings (WAL, foreign keys, the pool's number parsing): the target is a store.
    return openDatabase(to.engine === "postgres" ? { ...to, poolSize: 1 } : to).withoutPlugins();
  } catch (error) {
    throw new CopyError(`Cannot open the SQLite database at ${describeTarget(to)}: ${(error as Error).message}.`);
  }
}

/** The first query, with a plain message for a server that is not there or a file that is not SQLite. */
async function reachable(db: AnyDb, target: DatabaseTarget, role: "source" | "target") {
  try {
    await sql`SELECT 1`.execute(db);
    if (target.engine === "sqlite") await sql`SELECT count(*) FROM sqlite_master`.execute(db);
  } catch (error) {
    const what = target.engine === "sqlite" ? "the SQLite database at" : "PostgreSQL at";
    // 3D000: the server is there, the database is not (PostgreSQL never makes one on connect).
    const hint = (error as { code?: string }).code === "3D000" ? " Create it first (createdb, or CREATE DATABASE)." : "";
    throw new CopyError(`Cannot read the ${role}, ${what} ${describeTarget(target)}: ${(error as Error).message}.${hint}`);
  }
}

/** The source must have run exactly the migrations this code has, so both ends have the same tables. */
async function checkSourceMigrations(db: AnyDb, from: DatabaseTarget) {
  const hasTable = isPostgres(db)
    ? (await sql<{ found: string | null }>`SELECT to_regclass('kysely_migration')::text AS found`.execute(db)).rows[0]?.found
    : (await sql`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`.execute(db)).rows[0];
  if (!hasTable) throw new CopyError(`${describeTarget(from)} is not the store's database (it has no migrations table).`);
  const applied = (await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db)).rows.map((r) => r.name);
  const known = Object.keys(migrations);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length) {
    throw new CopyError(
      `${describeTarget(from)} was migrated by a newer version of the store (${unknown.join(", ")}); copy it with that version.`,
    );
  }
  const missing = known.filter((name) => !applied.includes(name));
  if (missing.length) {
    throw new CopyError(
      `${describeTarget(from)} lacks ${missing.length} migration(s) (${missing[0]} first): migrate it first (DATABASE_URL=<it> npm run db:migrate, or start the store on it once), then copy.`,
    );
  }
}

async function copyInto(
  source: Source,
  target: AnyDb,
  to: DatabaseTarget,
  options: { onTable?: (table: string, rows: number) => void; batchRows?: number },
): Promise<CopyResult> {
  await reachable(target, to, "target");
  const fresh = await rowsAfterMigrations();
  // Before migrating, so that a refused target is not written at all.
  await refuseRows(target, to, fresh);
  const migrated = await migrateToLatest(target);

  const tables = await tablesOf(source.db);
  const targetTables = await tablesOf(target);
  const extra = tables.filter((t) => !targetTables.includes(t));
  if (extra.length) throw new CopyError(`The target has no table ${extra.join(", ")}: the source's schema is not the store's.`);
  const columns = new Map<string, string[]>();
  for (const table of tables) {
    const ours = await columnsOf(source.db, table);
    const theirs = await columnsOf(target, table);
    const differ = [...ours.filter((c) => !theirs.includes(c)), ...theirs.filter((c) => !ours.includes(c))];
    if (differ.length) throw new CopyError(`Table ${table} differs between source and target (columns ${differ.join(", ")}).`);
    columns.set(table, ours);
  }
  // Copied last, over what is there by then: the rows migrations insert (page_version's counter,
  // the waiting room's settings) and the tables the triggers write while the others are copied
  // (product_page_version, whose trigger reads page_version's counter, so that row must stay until then).
  const last = new Set([...fresh.keys(), ...TRIGGER_WRITTEN]);
  const order = copyOrder(tables, await foreignKeysOf(target), last);

  const read = isPostgres(source.db)
    ? source.db.transaction().setIsolationLevel("repeatable read").setAccessMode("read only")
    : source.db.transaction();
  return read.execute((src) =>
    target.transaction().execute(async (dst) => {
      const copied: CopyResult["tables"] = [];
      for (const table of order) {
        let rows: number;
        try {
          // The source's rows replace whatever the migrations and the triggers left (see `last`).
          if (last.has(table)) await dst.deleteFrom(table).execute();
          rows = await copyTable(src, dst, table, columns.get(table)!, options.batchRows);
        } catch (error) {
          throw new CopyError(`The copy stopped at table ${table}: ${(error as Error).message}. Nothing was written to the target.`);
        }
        copied.push({ table, rows });
        options.onTable?.(table, rows);
      }
      const sequences = isPostgres(dst) ? await setSequences(dst) : [];
      return { tables: copied, sequences, migrated };
    }),
  );
}

/** Tables that triggers write when other tables' rows are inserted (migrations 0010, 0014). */
const TRIGGER_WRITTEN = ["page_version", "product_page_version"];

/**
 * What a freshly migrated store holds per table (the singleton rows some migrations insert), from
 * a throwaway in-memory migration: a target holding no more than that is empty.
 */
async function rowsAfterMigrations(): Promise<Map<string, number>> {
  const scratch = openDatabase(":memory:");
  try {
    await migrateToLatest(scratch);
    const db = scratch.withoutPlugins();
    const counts = new Map<string, number>();
    for (const table of await tablesOf(db)) {
      const rows = await countRows(db, table);
      if (rows > 0) counts.set(table, rows);
    }
    return counts;
  } finally {
    await scratch.destroy();
  }
}

async function refuseRows(target: AnyDb, to: DatabaseTarget, fresh: Map<string, number>) {
  const holding: string[] = [];
  for (const table of await tablesOf(target)) {
    const rows = await countRows(target, table);
    if (rows > (fresh.get(table) ?? 0)) holding.push(`${table}: ${rows}`);
  }
  if (holding.length) {
    throw new CopyError(
      `${describeTarget(to)} already holds rows (${holding.join(", ")}). db:copy only copies into an empty database; nothing was written.`,
    );
  }
}

async function countRows(db: AnyDb, table: string): Promise<number> {
  const { n } = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(n);
}

async function copyTable(src: AnyDb, dst: AnyDb, table: string, columns: string[], batchRows?: number) {
  const key = await primaryKeyOf(src, table);
  const batch = batchRows ?? Math.max(1, Math.floor(PARAMETERS_PER_BATCH / columns.length));
  const keyRefs = sql.join(key.map((column) => sql.ref(column)));
  let after: unknown[] | null = null;
  let copied = 0;
  for (;;) {
    // Keyset pages in primary-key order: each page is one indexed range, however big the table.
    let page = src.selectFrom(table).select(columns).limit(batch);
    for (const column of key) page = page.orderBy(column);
    if (after) page = page.where(sql<boolean>`(${keyRefs}) > (${sql.join(after)})`);
    const rows = await page.execute();
    if (rows.length === 0) return copied;
    await dst.insertInto(table).values(rows).execute();
    copied += rows.length;
    const last = rows[rows.length - 1] as Record<string, unknown>;
    after = key.map((column) => last[column]);
    if (rows.length < batch) return copied;
  }
}

/** Next id = highest id + 1 on every identity (or serial) column, as if the rows had been inserted here. */
async function setSequences(db: AnyDb): Promise<string[]> {
  const { rows } = await sql<{ table: string; column: string }>`
    SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
    WHERE table_schema = current_schema()
      AND table_name NOT LIKE 'kysely\\_migration%'
      AND pg_get_serial_sequence(quote_ident(table_schema) || '.' || quote_ident(table_name), column_name) IS NOT NULL
    ORDER BY table_name, column_name`.execute(db);
  for (const { table, column } of rows) {
    const id = sql.ref(column);
    await sql`SELECT setval(pg_get_serial_sequence(quote_ident(current_schema()) || '.' || quote_ident(${table}), ${column}),
                coalesce(max(${id}), 1), max(${id}) IS NOT NULL) FROM ${sql.table(table)}`.execute(db);
  }
  return rows.map(({ table, column }) => `${table}.${column}`);
}

/**
 * Parents before children (Kahn's order over the target's foreign keys, ties by name, a table's
 * references to itself ignored), and the tables the migrations fill last (see copyInto).
 */
export function copyOrder(tables: string[], foreignKeys: { child: string; parent: string }[], last: { has(table: string): boolean }) {
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of foreignKeys) {
    if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)!.add(parent);
  }
  const order: string[] = [];
  const pending = new Set(tables);
  while (pending.size) {
    const ready = [...pending].filter((t) => [...parents.get(t)!].every((p) => !pending.has(p))).sort();
    if (!ready.length) throw new CopyError(`The foreign keys between ${[...pending].join(", ")} form a cycle; db:copy cannot order them.`);
    for (const table of ready) {
      order.push(table);
      pending.delete(table);
    }
  }
  const lastOnes = order.filter((t) => last.has(t));
  for (const table of lastOnes) {
    const child = foreignKeys.find((fk) => fk.parent === table && fk.child !== table);
    if (child) throw new CopyError(`${child.child} refers to ${table}, which a migration fills: db:copy cannot copy ${table} last.`);
  }
  return [...order.filter((t) => !last.has(t)), ...lastOnes];
}

// The catalog, per engine: tables, columns, primary keys and foreign keys of the current schema.

async function tablesOf(db: AnyDb): Promise<string[]> {
  const query = isPostgres(db)
    ? sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')`
    : sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`;
  const names = (await query.execute(db)).rows.map((r) => r.name);
  return names.filter((name) => !name.startsWith("kysely_migration")).sort();
}

async function columnsOf(db: AnyDb, table: string): Promise<string[]> {
  const query = isPostgres(db)
    ? sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`
    : sql<{ name: string }>`SELECT name FROM pragma_table_info(${table}) ORDER BY cid`;
  return (await query.execute(db)).rows.map((r) => r.name);
}

async function primaryKeyOf(db: AnyDb, table: string): Promise<string[]> {
  const query = isPostgres(db)
    ? sql<{ name: string }>`SELECT k.column_name AS name FROM information_schema.table_constraints c
        JOIN information_schema.key_column_usage k
          ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema AND k.table_name = c.table_name
        WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_schema = current_schema() AND c.table_name = ${table}
        ORDER BY k.ordinal_position`
    : sql<{ name: string }>`SELECT name FROM pragma_table_info(${table}) WHERE pk > 0 ORDER BY pk`;
  const key = (await query.execute(db)).rows.map((r) => r.name);
  if (!key.length) throw new CopyError(`Table ${table} has no primary key, so db:copy cannot page through it.`);
  return key;
}

async function foreignKeysOf(db: AnyDb): Promise<{ child: string; parent: string }[]> {
  const query = isPostgres(db)
    ? sql<{ child: string; parent: string }>`SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint k
        JOIN pg_class child ON child.oid = k.conrelid JOIN pg_class parent ON parent.oid = k.confrelid
        JOIN pg_namespace n ON n.oid = k.connamespace
        WHERE k.contype = 'f' AND n.nspname = current_schema()`
    : sql<{ child: string; parent: string }>`SELECT m.name AS child, f."table" AS parent
        FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f WHERE m.type = 'table'`;
  return (await query.execute(db)).rows;
}

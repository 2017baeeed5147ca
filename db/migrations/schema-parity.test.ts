// The migrations give PostgreSQL the schema they give SQLite: the same tables, columns (name,
// normalised type, nullability, whether there is a default), indexes (name for the ones a
// migration creates, columns, unique, partial) and foreign keys (with their ON DELETE), and the
// few behaviours the rewrites in dialect.ts exist for. Every migration is portable now: both engines
// run them all.
import { NO_MIGRATIONS, sql, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateTo, migratorOf } from "../../tests/setup/migrate-to";
import { describeOnPostgres, postgresDatabaseForFile } from "../../tests/setup/postgres-db";
import { openDatabase, type Db } from "#db/client";
import { migrations } from "./index";

/** The newest migration: the schema is compared after all of them. */
const PORTABLE_UP_TO = Object.keys(migrations).at(-1)!;

interface Schema {
  columns: string[];
  indexes: string[];
  foreignKeys: string[];
  triggers: string[];
}

// Declared types by engine, to one name. PostgreSQL's "real" is a 4-byte float and must not appear.
const SQLITE_TYPES: Record<string, string> = { INTEGER: "integer", TEXT: "text", REAL: "float8" };
// SQLite's INTEGER is 8 bytes; a PostgreSQL column that must count past 2^31 is bigint (0032).
const POSTGRES_TYPES: Record<string, string> = { integer: "integer", bigint: "integer", text: "text", "double precision": "float8" };
const ON_DELETE: Record<string, string> = { a: "no action", r: "restrict", c: "cascade", n: "set null", d: "set default" };

function typeOf(types: Record<string, string>, declared: string) {
  const type = types[declared];
  if (!type) throw new Error(`Unexpected column type ${declared}: map it once it is on both engines.`);
  return type;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the raw schema, not the store's tables
async function sqliteSchema(db: Kysely<any>): Promise<Schema> {
  const tables = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'`.execute(db);
  const schema: Schema = { columns: [], indexes: [], foreignKeys: [], triggers: [] };
  const triggers = await sql<{
    name: string;
    table: string;
  }>`SELECT name, tbl_name AS "table" FROM sqlite_master WHERE type = 'trigger'`.execute(db);
  schema.triggers = triggers.rows.map((t) => `${t.table} ${t.name}`);
  for (const { name: table } of tables.rows) {
    const columns = await sql<{ name: string; type: string; notnull: number; pk: number; dfltValue: string | null }>`
      SELECT name, type, "notnull", pk, dflt_value FROM pragma_table_info(${table})`.execute(db);
    for (const c of columns.rows) {
      // An INTEGER PRIMARY KEY is the rowid: never null, though SQLite reports notnull = 0.
      const nullable = c.notnull === 0 && c.pk === 0;
      schema.columns.push(
        `${table}.${c.name} ${typeOf(SQLITE_TYPES, c.type)}${nullable ? "" : " not null"}${c.dfltValue === null ? "" : " default"}`,
      );
    }
    const indexes = await sql<{ name: string; unique: number; origin: string; partial: number }>`
      SELECT name, "unique", origin, partial FROM pragma_index_list(${table})`.execute(db);
    for (const index of indexes.rows) {
      if (index.origin === "pk") continue;
      const cols = await sql<{ name: string }>`SELECT name FROM pragma_index_info(${index.name}) ORDER BY seqno`.execute(db);
      // A UNIQUE column constraint's index is named by the engine (sqlite_autoindex_…, …_key).
      const name = index.origin === "c" ? index.name : "(constraint)";
      schema.indexes.push(
        `${table} ${name} (${cols.rows.map((c) => c.name).join(", ")})${index.unique ? " unique" : ""}${index.partial ? " partial" : ""}`,
      );
    }
    const keys = await sql<{ from: string; table: string; to: string; onDelete: string }>`
      SELECT "from", "table", "to", on_delete FROM pragma_foreign_key_list(${table})`.execute(db);
    for (const key of keys.rows)
      schema.foreignKeys.push(`${table}.${key.from} -> ${key.table}.${key.to} on delete ${key.onDelete.toLowerCase()}`);
  }
  return sorted(schema);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the raw schema, not the store's tables
async function postgresSchema(db: Kysely<any>): Promise<Schema> {
  const schema: Schema = { columns: [], indexes: [], foreignKeys: [], triggers: [] };
  const triggers = await sql<{ name: string; table: string }>`
    SELECT DISTINCT trigger_name AS name, event_object_table AS "table" FROM information_schema.triggers WHERE trigger_schema = 'public'`.execute(
    db,
  );
  schema.triggers = triggers.rows.map((t) => `${t.table} ${t.name}`);
  const columns = await sql<{ tableName: string; columnName: string; dataType: string; isNullable: string; hasDefault: boolean }>`
    SELECT table_name, column_name, data_type, is_nullable, (column_default IS NOT NULL) AS has_default
    FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%'`.execute(db);
  for (const c of columns.rows) {
    schema.columns.push(
      `${c.tableName}.${c.columnName} ${typeOf(POSTGRES_TYPES, c.dataType)}${c.isNullable === "YES" ? "" : " not null"}${c.hasDefault ? " default" : ""}`,
    );
  }
  const indexes = await sql<{
    tableName: string;
    name: string;
    unique: boolean;
    primary: boolean;
    partial: boolean;
    constraint: boolean;
    columns: string[];
  }>`
    SELECT t.relname AS table_name, i.relname AS name, x.indisunique AS unique, x.indisprimary AS primary,
      x.indpred IS NOT NULL AS partial,
      EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid) AS constraint,
      array(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY k(attnum, ord)
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.ord) AS columns
    FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid
    JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public' AND t.relname NOT LIKE 'kysely_%'`.execute(db);
  for (const index of indexes.rows) {
    if (index.primary) continue;
    const name = index.constraint ? "(constraint)" : index.name;
    schema.indexes.push(
      `${index.tableName} ${name} (${index.columns.join(", ")})${index.unique ? " unique" : ""}${index.partial ? " partial" : ""}`,
    );
  }
  const keys = await sql<{ tableName: string; from: string; toTable: string; to: string; onDelete: string }>`
    SELECT t.relname AS table_name, a.attname AS from, rt.relname AS to_table, ra.attname AS to, c.confdeltype AS on_delete
    FROM pg_constraint c
    JOIN pg_class t ON t.oid = c.conrelid
    JOIN pg_class rt ON rt.oid = c.confrelid
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    JOIN pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1]
    JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE c.contype = 'f' AND n.nspname = 'public'`.execute(db);
  for (const key of keys.rows)
    schema.foreignKeys.push(`${key.tableName}.${key.from} -> ${key.toTable}.${key.to} on delete ${ON_DELETE[key.onDelete]}`);
  return sorted(schema);
}

function sorted(schema: Schema): Schema {
  return {
    columns: schema.columns.sort(),
    indexes: schema.indexes.sort(),
    foreignKeys: schema.foreignKeys.sort(),
    triggers: schema.triggers.sort(),
  };
}

/** What the rewrites are for: the default instant's shape, case-insensitive usernames, byte-order text. */
const EXPECTED_BEHAVIOUR = {
  duplicateInserted: 0,
  found: ["Zoe"],
  byName: ["adam", "Zoe"],
  byEmail: ["Zoe@example.com", "adam@example.com"],
  createdAtShape: true,
};

async function behaviour(db: Db) {
  await db.insertInto("users").values({ username: "Zoe", passwordHash: "x", email: "Zoe@example.com" }).execute();
  await db.insertInto("users").values({ username: "adam", passwordHash: "x", email: "adam@example.com" }).execute();
  const duplicate = await db
    .insertInto("users")
    .values({ username: "ZOE", passwordHash: "x", email: "other@example.com" })
    .onConflict((oc) => oc.column("username").doNothing())
    .executeTakeFirst();
  const found = await db.selectFrom("users").select("username").where("username", "=", "zoe").execute();
  const byName = await db.selectFrom("users").select("username").orderBy("username").execute();
  const byEmail = await db.selectFrom("users").select("email").orderBy("email").execute();
  const created = await db.selectFrom("users").select("createdAt").executeTakeFirstOrThrow();
  return {
    duplicateInserted: Number(duplicate.numInsertedOrUpdatedRows ?? 0n),
    found: found.map((row) => row.username),
    // NOCASE sorts without regard to case; any other text in byte order (upper case first), as
    // SQLite's BINARY collation does.
    byName: byName.map((row) => row.username),
    byEmail: byEmail.map((row) => row.email),
    createdAtShape: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(created.createdAt),
  };
}

/**
 * Which page versions each write moves (decision 0027): "all" (every page) on a setting write; a
 * product's own version and "list" on a product or image write a page shows; nothing on a stock
 * movement that stays above 10 or on a conditional update that lost its race.
 */
const EXPECTED_PAGE_VERSIONS = [
  "new product A: list, A",
  "new product B: list, B",
  "hold on A, 50 to 49: nothing",
  "hold on A that lost its race: nothing",
  "A edited (price): list, A",
  "hold on A, 49 to 10: list, A",
  "hold on B, 5 to 4: list, B",
  "image added to B: list, B",
  "setting written: all",
];

async function pageVersionBehaviour(db: Db) {
  const read = async () => {
    const row = await db.selectFrom("pageVersion").select(["version", "listVersion"]).executeTakeFirstOrThrow();
    const rows = await db.selectFrom("productPageVersion").select(["productId", "version"]).execute();
    return { all: row.version, list: row.listVersion, products: new Map(rows.map((r) => [r.productId, r.version])) };
  };
  const ids: Record<string, number> = {};
  const seen: string[] = [];
  const write = async (label: string, change: () => Promise<unknown>) => {
    const before = await read();
    await change();
    const after = await read();
    const moved = [
      ...(after.all !== before.all ? ["all"] : []),
      ...(after.list !== before.list ? ["list"] : []),
      ...Object.entries(ids)
        .filter(([, id]) => after.products.get(id) !== before.products.get(id))
        .map(([name]) => name),
    ];
    seen.push(`${label}: ${moved.join(", ") || "nothing"}`);
  };
  const newProduct = async (name: string, inventory: number) => {
    const { id } = await db
      .insertInto("products")
      .values({ name, description: "", priceCents: 3000, inventory, updatedAt: "2026-06-01T12:00:00.000Z" })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids[name.slice(-1)] = id;
  };
  const hold = (name: string, units: number) =>
    db
      .updateTable("products")
      .set((eb) => ({ inventory: eb("inventory", "-", units) }))
      .where("id", "=", ids[name]!)
      .where("inventory", ">=", units)
      .execute();
  await write("new product A", () => newProduct("Tee A", 50));
  await write("new product B", () => newProduct("Cap B", 5));
  await write("hold on A, 50 to 49", () => hold("A", 1));
  await write("hold on A that lost its race", () => hold("A", 500));
  await write("A edited (price)", () =>
    db.updateTable("products").set({ priceCents: 3500, updatedAt: "2026-06-01T12:01:00.000Z" }).where("id", "=", ids.A!).execute(),
  );
  await write("hold on A, 49 to 10", () => hold("A", 39));
  await write("hold on B, 5 to 4", () => hold("B", 1));
  await write("image added to B", () =>
    db.insertInto("productImages").values({ productId: ids.B!, imageUrl: "/uploads/b.jpg", displayOrder: 0, isPrimary: 1 }).execute(),
  );
  await write("setting written", () =>
    db
      .insertInto("appSettings")
      .values({ key: "homepage_tagline", value: "Soon." })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: "Soon." }))
      .execute(),
  );
  return seen;
}

describe("migrations on SQLite", () => {
  it(`run up to ${PORTABLE_UP_TO} and behave as the PostgreSQL side is checked against`, async () => {
    const db = openDatabase(":memory:");
    try {
      await migrateTo(db, PORTABLE_UP_TO);
      expect(await behaviour(db)).toEqual(EXPECTED_BEHAVIOUR);
      expect(await pageVersionBehaviour(db)).toEqual(EXPECTED_PAGE_VERSIONS);
    } finally {
      await db.destroy();
    }
  });
});

describeOnPostgres("migrations on PostgreSQL", () => {
  const database = postgresDatabaseForFile();
  let sqlite: Db;
  let postgres: Db;
  beforeAll(async () => {
    sqlite = openDatabase(":memory:");
    postgres = openDatabase({ engine: "postgres", url: database.url, poolSize: 2 });
    await migrateTo(sqlite, PORTABLE_UP_TO);
    await migrateTo(postgres, PORTABLE_UP_TO);
  });
  afterAll(async () => {
    await sqlite?.destroy();
    await postgres?.destroy();
  });

  it(`give the same tables, columns, indexes, foreign keys and triggers as on SQLite, up to ${PORTABLE_UP_TO}`, async () => {
    const expected = await sqliteSchema(sqlite);
    expect(expected.columns.length).toBeGreaterThan(50);
    expect(expected.indexes.length).toBeGreaterThan(5);
    expect(expected.foreignKeys.length).toBeGreaterThan(5);
    expect(expected.triggers).toHaveLength(15);
    expect(await postgresSchema(postgres)).toEqual(expected);
  });

  it("compare every text column byte by byte (C), except the two NOCASE ones", async () => {
    const { rows } = await sql<{ column: string; collation: string | null }>`
      SELECT table_name || '.' || column_name AS column, collation_name AS collation FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type = 'text' AND table_name NOT LIKE 'kysely_%'`.execute(postgres);
    expect(rows.length).toBeGreaterThan(30);
    const nocase = rows.filter((row) => row.collation === "nocase").map((row) => row.column);
    expect(nocase.sort()).toEqual(["subscribers.email", "users.username"]);
    expect(rows.filter((row) => row.collation !== "nocase" && row.collation !== "C")).toEqual([]);
  });

  it("store instants in the same text shape, ignore case in usernames and sort text byte by byte", async () => {
    expect(await behaviour(postgres)).toEqual(EXPECTED_BEHAVIOUR);
  });

  it("move the page versions a write changes, as on SQLite: a product's own and the list's, or every page's", async () => {
    expect(await pageVersionBehaviour(postgres)).toEqual(EXPECTED_PAGE_VERSIONS);
  });

  it("go all the way down again", async () => {
    const { error } = await migratorOf(postgres).migrateTo(NO_MIGRATIONS);
    expect(error).toBeUndefined();
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%'`.execute(
      postgres,
    );
    expect(rows[0]!.n).toBe(0);
  });
});

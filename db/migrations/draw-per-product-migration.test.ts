// Migration 0032: one draw per product, kept by the database; on PostgreSQL, event ids that count
// past 2^31. On SQLite, and on PostgreSQL when the run has one.
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrateTo, migratorOf } from "../../tests/setup/migrate-to";
import { describeOnPostgres, postgresDatabaseForFile } from "../../tests/setup/postgres-db";
import { openDatabase, type Db } from "#db/client";

const BEFORE = "0031_mail_sends";
const THIS = "0032_draw_per_product_and_event_ids";

async function applied(db: Db) {
  const { rows } = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(db);
  return rows[0]?.name;
}

async function newProduct(db: Db, name: string) {
  const row = await db
    .insertInto("products")
    .values({ name, description: "", priceCents: 3000, inventory: 5, updatedAt: "2026-06-01T12:00:00.000Z" })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

function newDraw(db: Db, productId: number) {
  return db
    .insertInto("draws")
    .values({
      productId,
      entriesOpenAt: "2026-06-02T12:00:00.000Z",
      entriesCloseAt: "2026-06-03T12:00:00.000Z",
      claimMinutes: 30,
      units: '{"":5}',
      seed: "00".repeat(32),
      commitment: "11".repeat(32),
      chain: "11".repeat(32),
      siteOrigin: "https://shop.example",
      createdAt: "2026-06-01T12:00:00.000Z",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
}

function checks(open: () => Db) {
  it("refuses a second draw for a product, and still takes a draw for another", async () => {
    const db = open();
    await migrateTo(db, THIS);
    const tee = await newProduct(db, "Tee");
    const cap = await newProduct(db, "Cap");
    await newDraw(db, tee);
    await expect(newDraw(db, tee)).rejects.toThrow();
    await newDraw(db, cap);
    expect(await db.selectFrom("draws").select("productId").orderBy("productId").execute()).toEqual([
      { productId: tee },
      { productId: cap },
    ]);
  });

  it("stops with the draws' ids on a store that already has two for one product, and changes nothing", async () => {
    const db = open();
    await migrateTo(db, BEFORE);
    const tee = await newProduct(db, "Old Tee");
    const first = await newDraw(db, tee);
    const second = await newDraw(db, tee);
    const { error } = await migratorOf(db).migrateTo(THIS);
    expect((error as Error).message).toBe(
      `A product may have one draw; delete the extra draws before upgrading (product ${tee}: draws ${first.id}, ${second.id}).`,
    );
    expect(await applied(db)).toBe(BEFORE);
    expect(await db.selectFrom("draws").select("id").orderBy("id").execute()).toEqual([{ id: first.id }, { id: second.id }]);
    await db.deleteFrom("draws").where("id", "=", second.id).execute();
    await migrateTo(db, THIS);
    expect(await applied(db)).toBe(THIS);
  });
}

describe("migration 0032 on SQLite", () => {
  const opened: Db[] = [];
  afterAll(async () => {
    for (const db of opened) await db.destroy();
  });
  checks(() => {
    const db = openDatabase(":memory:");
    opened.push(db);
    return db;
  });
});

describeOnPostgres("migration 0032 on PostgreSQL", () => {
  const databases = [postgresDatabaseForFile(), postgresDatabaseForFile(), postgresDatabaseForFile()];
  const opened: Db[] = [];
  afterAll(async () => {
    for (const db of opened) await db.destroy();
  });
  const open = () => {
    const db = openDatabase({ engine: "postgres", url: databases[opened.length]!.url, poolSize: 2 });
    opened.push(db);
    return db;
  };
  checks(open);

  it("numbers events past 2^31 and reads the ids back as numbers", async () => {
    const db = open();
    await migrateTo(db, THIS);
    // The identity's sequence must have become bigint too: an int4 sequence refuses this restart.
    await sql`ALTER TABLE events ALTER COLUMN id RESTART WITH 2147483648`.execute(db);
    const row = await db
      .insertInto("events")
      .values({ kind: "view", occurredAt: "2026-06-01T12:00:00.000Z" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(row.id).toBe(2 ** 31);
    await db.insertInto("eventRollup").values({ id: 1, rolledToId: row.id, rolledAt: "2026-06-01T12:01:00.000Z" }).execute();
    expect(await db.selectFrom("eventRollup").select("rolledToId").executeTakeFirstOrThrow()).toEqual({ rolledToId: 2 ** 31 });
  });
});

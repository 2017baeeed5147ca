import Database from "better-sqlite3";
import { Kysely, SqliteDialect, sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { withStatementCache } from "#db/statement-cache";

interface Db {
  shirts: { id: number; name: string };
}

let db: Kysely<Db>;
afterEach(() => db?.destroy());

function open() {
  const sqlite = new Database(":memory:");
  sqlite.exec("create table shirts (id integer primary key, name text not null)");
  sqlite.exec("insert into shirts (id, name) values (1, 'tee'), (2, 'hoodie'), (3, 'cap')");
  db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return db;
}

const nameOf = (id: number) => db.selectFrom("shirts").select("name").where("id", "=", id).executeTakeFirst();

describe("prepared statements kept per SQL text", () => {
  it("answers each call with its own parameters", async () => {
    open();
    expect(await nameOf(1)).toEqual({ name: "tee" });
    expect(await nameOf(2)).toEqual({ name: "hoodie" });
    await db.updateTable("shirts").set({ name: "long tee" }).where("id", "=", 1).execute();
    expect(await nameOf(1)).toEqual({ name: "long tee" });
  });

  it("sees a column added after the statement was first prepared", async () => {
    open();
    const all = () => sql<Record<string, unknown>>`select * from shirts where id = ${1}`.execute(db);
    expect((await all()).rows).toEqual([{ id: 1, name: "tee" }]);
    await sql`alter table shirts add column colour text not null default 'black'`.execute(db);
    expect((await all()).rows).toEqual([{ id: 1, name: "tee", colour: "black" }]);
  });
});

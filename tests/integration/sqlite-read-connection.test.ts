import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { openDatabase, preparedOn, type Db } from "#db/client";
import { describeOnSqliteOnly } from "../setup/context";
import { TMP_DIR } from "../setup/paths";

let db: Db | undefined;
afterEach(async () => {
  await db?.destroy();
  db = undefined;
});

async function freshFile(): Promise<Db> {
  const dir = path.join(TMP_DIR, `read-connection-${process.pid}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  db = openDatabase(path.join(dir, "store.db"));
  await sql`CREATE TABLE shelf (id INTEGER PRIMARY KEY, left_in_stock INTEGER NOT NULL)`.execute(db);
  await sql`INSERT INTO shelf (id, left_in_stock) VALUES (1, 5)`.execute(db);
  return db;
}

const shelf = (db: Db) =>
  (db as unknown as Db)
    .selectFrom("shelf" as never)
    .select(sql<number>`left_in_stock`.as("left"))
    .executeTakeFirstOrThrow() as Promise<{ left: number }>;

describeOnSqliteOnly("two connections per SQLite file; on PostgreSQL the pool gives each query its own")(
  "reads beside a write transaction (db/sqlite-dialect.ts)",
  () => {
    it("answer a lone SELECT while a transaction is open, with what is committed, never the transaction's half-done rows", async () => {
      const db = await freshFile();
      let finish!: () => void;
      const held = new Promise<void>((resolve) => (finish = resolve));
      let inside!: () => void;
      const begun = new Promise<void>((resolve) => (inside = resolve));
      const transaction = db.transaction().execute(async (trx) => {
        await sql`UPDATE shelf SET left_in_stock = 4 WHERE id = 1`.execute(trx);
        inside();
        await held;
      });
      await begun;
      // Kysely's own driver would queue this behind the transaction until it ended.
      expect(await shelf(db)).toEqual({ left: 5 });
      expect(preparedOn<{ left: number }>(db, "SELECT left_in_stock AS left FROM shelf WHERE id = 1").get()).toEqual({ left: 5 });
      finish();
      await transaction;
      expect(await shelf(db)).toEqual({ left: 4 });
      expect(preparedOn<{ left: number }>(db, "SELECT left_in_stock AS left FROM shelf WHERE id = 1").get()).toEqual({ left: 4 });
    });

    it("keep writes outside a transaction in turn behind it, on the writing connection", async () => {
      const db = await freshFile();
      let finish!: () => void;
      const held = new Promise<void>((resolve) => (finish = resolve));
      const order: string[] = [];
      const transaction = db.transaction().execute(async (trx) => {
        await sql`UPDATE shelf SET left_in_stock = left_in_stock - 1 WHERE id = 1`.execute(trx);
        await held;
        order.push("transaction");
      });
      const lone = sql`UPDATE shelf SET left_in_stock = left_in_stock - 1 WHERE id = 1`.execute(db).then(() => order.push("lone write"));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(order).toEqual([]);
      finish();
      await Promise.all([transaction, lone]);
      expect(order).toEqual(["transaction", "lone write"]);
      expect(await shelf(db)).toEqual({ left: 3 });
    });

    it("never write through the reading connection", async () => {
      const db = await freshFile();
      expect(() => preparedOn(db, "UPDATE shelf SET left_in_stock = 0 WHERE id = 1").run()).toThrow(/readonly/);
      expect(await shelf(db)).toEqual({ left: 5 });
    });
  },
);

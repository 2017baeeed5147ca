import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type DatabaseTarget } from "#db/client";
import { CopyError, copyDatabase } from "#db/copy";
import { dedicatedClient } from "#db/postgres";
import { payLocalIntent } from "#server/integrations/payments/local";
import { flushEvents } from "#server/services/reporting/events";
import { seedIfEmpty } from "#server/seed";
import { addToCart } from "#server/services/cart/cart";
import { processOrder } from "#server/services/checkout/checkout";
import { createEarlyAccessLink } from "#server/services/drop/early-access";
import { confirmPayment } from "#server/services/checkout/order-confirmation";
import { createSession } from "#server/services/accounts/sessions";
import { subscribe } from "#server/services/mail/subscribers";
import { sendSupportMessage } from "#server/services/store/support";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext, manualClock, type TestContext } from "../setup/context";
import { TMP_DIR } from "../setup/paths";
import { describeOnPostgres, postgresDatabaseForFile } from "../setup/postgres-db";

// db:copy is about both engines at once: this file makes its own SQLite store and PostgreSQL
// database whatever STORE_TEST_DB says.
const store = createTestContext({}, "sqlite");
const sourceFile = (store.config.database as { file: string }).file;
const dir = path.join(TMP_DIR, `copy-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
const backFile = path.join(dir, "back", "store.db");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const customer = (n: number) => ({
  email: `buyer${n}@example.com`,
  name: `Buyer ${n}`,
  phone: "",
  street: `${n} Main St`,
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
});

/** The seeded store, then what shoppers and an admin leave in it, all through the services. */
async function fillStore(ctx: TestContext) {
  expect(await seedIfEmpty(ctx)).toBe(true);
  await ensureAdmin(ctx, { username: "Owner", password: "a long enough password", email: "owner@example.com" });
  const admin = await ctx.db.selectFrom("users").select("id").executeTakeFirstOrThrow();
  await createSession(ctx, admin.id);
  const tee = await ctx.db
    .selectFrom("products")
    .select("id")
    .where("isVisible", "=", 1)
    .where("isComingSoon", "=", 0)
    .where("isCountdownRestricted", "=", 0)
    .where("maxPerCustomer", "is", null)
    .where("inventory", ">=", 5)
    .orderBy("id")
    .executeTakeFirstOrThrow();
  for (let n = 1; n <= 4; n++) {
    await subscribe(ctx, { email: `fan${n}@example.com` }, "198.51.100.7");
    await addToCart(ctx, `bag-${n}`, tee.id, 1);
    const order = await processOrder(ctx, { sessionId: `bag-${n}`, customer: customer(n), shippingMethod: "usps-ground_saver" });
    // Buyers 1 and 2 pay (orders paid, holds sold, confirmation mail); 3 and 4 keep a live hold.
    if (n <= 2) {
      await payLocalIntent(ctx, { clientSecret: order.clientSecret, cardNumber: "4242 4242 4242 4242" });
      expect((await confirmPayment(ctx, order.paymentIntentId)).status).toBe("paid");
    }
  }
  await addToCart(ctx, "bag-still-shopping", tee.id, 2);
  await createEarlyAccessLink(ctx, "fan1@example.com", "http://localhost");
  await sendSupportMessage(
    ctx,
    {
      name: "Buyer One",
      email: "buyer1@example.com",
      orderNumber: "1001",
      subject: "Where is it?",
      message: "My order has not arrived yet.",
      supportType: "order",
    },
    "198.51.100.8",
  );
  // The shoppers' events are written in batches a second apart: all of them now, before the source
  // is read, so that what is copied is what was read.
  await flushEvents(ctx);
}

/** Every table's rows, in primary-key order, from either engine (migration bookkeeping left out). */
async function dump(target: DatabaseTarget): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  if (target.engine === "sqlite") {
    const db = new Database(target.file, { readonly: true });
    try {
      const tables = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' AND name NOT LIKE 'kysely%' ORDER BY name",
        )
        .pluck()
        .all() as string[];
      for (const table of tables) {
        const key = db.prepare(`SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`).pluck().all(table) as string[];
        out[table] = db.prepare(`SELECT * FROM "${table}" ORDER BY ${key.map((k) => `"${k}"`).join(", ")}`).all();
      }
    } finally {
      db.close();
    }
    return out;
  }
  // Read as the store reads PostgreSQL (bigint as a number): the dump is compared with SQLite's.
  const client = dedicatedClient(target.url);
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely%' ORDER BY table_name",
    );
    for (const { name } of tables) {
      const { rows: key } = await client.query<{ column_name: string }>(
        `SELECT k.column_name FROM information_schema.table_constraints c JOIN information_schema.key_column_usage k
           ON k.constraint_name = c.constraint_name AND k.table_name = c.table_name
         WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_name = $1 ORDER BY k.ordinal_position`,
        [name],
      );
      out[name] = (await client.query(`SELECT * FROM "${name}" ORDER BY ${key.map((k) => `"${k.column_name}"`).join(", ")}`)).rows;
    }
  } finally {
    await client.end();
  }
  return out;
}

/** `npm run db:copy -- …` as an operator runs it. */
function runCopy(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/db-copy.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describeOnPostgres("npm run db:copy", () => {
  const database = postgresDatabaseForFile();
  const postgres = (): DatabaseTarget => ({ engine: "postgres", url: database.url, poolSize: 2 });
  let original: Record<string, unknown[]>;

  beforeAll(async () => {
    await fillStore(store);
    original = await dump({ engine: "sqlite", file: sourceFile });
  }, 120_000);

  it("round-trips the seeded store SQLite → PostgreSQL → a new SQLite file, every row of every table the same", async () => {
    // The store's tables that must hold rows for this test to mean anything.
    for (const table of [
      "app_settings",
      "products",
      "product_images",
      "users",
      "sessions",
      "subscribers",
      "cart_items",
      "orders",
      "order_items",
      "inventory_holds",
      "local_payment_intents",
      "mail_messages",
      "rate_limits",
      "support_messages",
      "early_access_links",
      "page_version",
      "waiting_room",
    ]) {
      expect(original[table]?.length, table).toBeGreaterThan(0);
    }
    expect(new Set(original.inventory_holds!.map((h) => (h as { status: string }).status))).toEqual(new Set(["sold", "held"]));

    const there = await runCopy(["--from", sourceFile, "--to", database.url]);
    expect(there.stderr).toBe("");
    expect(there.code).toBe(0);
    // Rows per table, parents first.
    expect(there.stdout).toMatch(new RegExp(`^  orders +${original.orders!.length}$`, "m"));
    expect(there.stdout).toMatch(new RegExp(`^  products +${original.products!.length}$`, "m"));
    const lines = there.stdout.split("\n");
    const at = (table: string) => lines.findIndex((line) => line.startsWith(`  ${table} `));
    expect(at("products")).toBeLessThan(at("order_items"));
    expect(at("orders")).toBeLessThan(at("inventory_holds"));
    expect(at("email_campaigns")).toBeLessThan(at("campaign_recipients"));
    expect(there.stdout).toMatch(/id sequences set/);
    expect(await dump(postgres())).toEqual(original);

    const back = await copyDatabase(postgres(), { engine: "sqlite", file: backFile });
    expect(back.sequences).toEqual([]);
    expect(Object.fromEntries(back.tables.map((t) => [t.table, t.rows]))).toEqual(
      Object.fromEntries(Object.entries(original).map(([table, rows]) => [table, rows.length])),
    );
    expect(await dump({ engine: "sqlite", file: backFile })).toEqual(original);
  }, 60_000);

  it("leaves PostgreSQL (and the copy back) giving the next id: the store goes on where it stopped", async () => {
    const db = openDatabase(postgres());
    const ctx: TestContext = { ...store, db, clock: manualClock(store.clock.now()) };
    try {
      const fan = await subscribe(ctx, { email: "after-the-move@example.com" }, "198.51.100.9");
      expect(fan.id).toBe(Math.max(...original.subscribers!.map((s) => (s as { id: number }).id)) + 1);
      const tee = (original.cart_items![0] as { product_id: number }).product_id;
      await addToCart(ctx, "bag-after-move", tee, 1);
      const order = await processOrder(ctx, { sessionId: "bag-after-move", customer: customer(9), shippingMethod: "usps-ground_saver" });
      expect(order.orderSummary.orderId).toBe(Math.max(...original.orders!.map((o) => (o as { id: number }).id)) + 1);
      const hold = await db
        .selectFrom("inventoryHolds")
        .select("id")
        .where("orderId", "=", order.orderSummary.orderId)
        .executeTakeFirstOrThrow();
      expect(hold.id).toBe(Math.max(...original.inventory_holds!.map((h) => (h as { id: number }).id)) + 1);
    } finally {
      await db.destroy();
    }
    const sqlite = new Database(backFile);
    try {
      const { lastInsertRowid } = sqlite
        .prepare("INSERT INTO support_messages (name, email, subject, message) VALUES ('A', 'a@example.com', 'S', 'M')")
        .run();
      expect(Number(lastInsertRowid)).toBe(Math.max(...original.support_messages!.map((m) => (m as { id: number }).id)) + 1);
    } finally {
      sqlite.close();
    }
  });

  it("refuses a target that already holds rows, says which, and leaves it unchanged", async () => {
    const before = await dump(postgres());
    const refused = await copyDatabase({ engine: "sqlite", file: backFile }, postgres()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CopyError);
    expect((refused as Error).message).toMatch(
      /^postgres:\/\/127\.0\.0\.1:\d+\/test_\w+ already holds rows \(.*orders: \d+.*\)\. db:copy only copies into an empty database; nothing was written\.$/,
    );
    expect(await dump(postgres())).toEqual(before);

    const sourceBefore = await dump({ engine: "sqlite", file: sourceFile });
    const script = await runCopy(["--from", database.url, "--to", sourceFile]);
    expect(script.code).toBe(1);
    expect(script.stdout).not.toMatch(/Copied/);
    expect(script.stderr).toBe(
      `Nothing copied: ${sourceFile} already holds rows (${Object.entries(sourceBefore)
        .filter(([table, rows]) => rows.length > (table === "page_version" || table === "waiting_room" ? 1 : 0))
        .map(([table, rows]) => `${table}: ${rows.length}`)
        .join(", ")}). db:copy only copies into an empty database; nothing was written.\n`,
    );
    expect(await dump({ engine: "sqlite", file: sourceFile })).toEqual(sourceBefore);
  }, 60_000);

  // Four runs of the command, each a new tsx process: seconds each on a loaded machine.
  it("answers a missing file, a server that is not there and an unknown scheme with one plain line, and makes nothing", async () => {
    const nowhere = path.join(dir, "nowhere", "store.db");
    const target = path.join(dir, "never-made", "store.db");
    const missing = await runCopy(["--from", nowhere, "--to", target]);
    expect(missing).toMatchObject({ code: 1, stderr: `Nothing copied: There is no SQLite database at ${nowhere}.\n` });
    expect(fs.existsSync(path.dirname(target))).toBe(false);

    // The password is never repeated back.
    const down = await runCopy(["--from", sourceFile, "--to", "postgres://store:hunter2@127.0.0.1:1/store"]);
    expect(down).toMatchObject({
      code: 1,
      stderr: "Nothing copied: Cannot read the target, PostgreSQL at postgres://127.0.0.1:1/store: connect ECONNREFUSED 127.0.0.1:1.\n",
    });

    const scheme = await runCopy(["--from", "mysql://store:hunter2@db/store", "--to", target]);
    expect(scheme.code).toBe(1);
    expect(scheme.stderr).toBe(
      "Nothing copied: --from must be a path to an SQLite file (or a sqlite:/file: URL) or a postgres:// URL; mysql:// is not supported.\n",
    );

    const usage = await runCopy(["--from", sourceFile]);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/^Nothing copied: give both --from and --to\. Usage: npm run db:copy -- --from /);
    expect(fs.existsSync(path.dirname(target))).toBe(false);
  }, 120_000);
});

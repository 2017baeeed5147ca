// Two separate stores (two `npm start`s, as on two machines) on one database, over real HTTP: a
// rush split over both, one of them SIGKILLed mid-rush (its whole process group), its shoppers
// carrying on at the other. Nothing is sold twice or lost, the other store serves throughout, and
// after the killed one is back the books balance and one sweeper releases expired holds.
// SQLite (one file, both stores on this box) by default; PostgreSQL under STORE_TEST_DB=postgres.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db } from "#db/client";
import { mockServer } from "../mocks/server";
import { getFresh, startBuiltStore, type BuiltStore } from "../setup/built-store";
import { builtStoreDatabase } from "../setup/built-store-database";
import { unitsOf } from "../setup/books";
import { CookieJar } from "../setup/http";
import { TMP_DIR } from "../setup/paths";

const dataDir = path.join(TMP_DIR, `two-instances-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
// The SQLite file in dataDir, or an empty database on the run's PostgreSQL server: the first store
// migrates it, as in production.
const database = builtStoreDatabase();
const HOLD_SECONDS = 30;
// One process each (two instances share this box's cores), one secret as every box of a store has,
// a short hold so the sweeper's work shows within the test, and a crowd that all comes from 127.0.0.1.
const env = (): Record<string, string> => ({
  WEB_CONCURRENCY: "1",
  CHECKOUTS_PER_IP: "100000",
  SESSION_SECRET: "two-instances-test-secret",
  CHECKOUT_HOLD_MINUTES: String(HOLD_SECONDS / 60),
  ...database.env(),
});
const customerInfo = (n: number) => ({
  email: `shopper${n}@example.com`,
  name: `Shopper ${n}`,
  phone: "",
  street: "5 Elm St",
  city: "Austin",
  state: "TX",
  zipCode: "73301",
  country: "US",
});

const stores: BuiltStore[] = [];
let db: Db;
let rushProductId = 0;

beforeAll(async () => {
  // Only the stores on loopback are called, never a vendor: no interception.
  mockServer.close();
  fs.mkdirSync(dataDir, { recursive: true });
  // The first store migrates and seeds alone; the second finds it done (as a rolling deploy).
  stores.push(await startBuiltStore({ dataDir, env: env() }));
  stores.push(await startBuiltStore({ dataDir, env: env() }));
  db = database.open(dataDir);
}, 330_000);

afterAll(async () => {
  await Promise.all(stores.map((store) => store.stop()));
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function pidOf(store: BuiltStore): Promise<number> {
  return (JSON.parse((await getFresh(`${store.baseUrl}/healthz`)).body) as { pid: number }).pid;
}

async function newProduct(inventory: number): Promise<number> {
  const { id } = await db
    .insertInto("products")
    .values({ name: `Drop ${crypto.randomUUID().slice(0, 6)}`, description: "Limited", priceCents: 9000, inventory })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * A shopper behind a non-sticky load balancer: each request goes to the other instance than the
 * last (so a journey crosses instances, which works because sessions, bags and holds live in the
 * database, under one secret). When an instance is gone (the connection is refused or cut), the
 * same request goes to the other one, and so do the shopper's later ones, as a balancer does once
 * a health check failed.
 */
function shopper(n: number) {
  const jar = new CookieJar();
  let at = n % 2;
  let failedOver = false;
  async function post(pathname: string, body: unknown): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`${stores[at]!.baseUrl}${pathname}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: jar.header() },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(60_000),
        });
        jar.store(response);
        if (!failedOver) at = 1 - at;
        return response;
      } catch (error) {
        if (attempt >= 3) throw error;
        at = 1 - at;
        failedOver = true;
      }
    }
  }
  return { post, failedOver: () => failedOver };
}

/** Bag one unit, Process Order, pay with the test card: "paid", "sold out" or what went wrong. */
async function shop(n: number, productId: number, failovers: number[]): Promise<string> {
  const { post, failedOver } = shopper(n);
  try {
    const added = await post("/api/cart", { productId, quantity: 1 });
    if (added.status === 409) return "sold out";
    if (added.status !== 201) return `cart ${added.status}: ${await added.text()}`;
    const processed = await post("/api/process-order", { customerInfo: customerInfo(n), shippingMethod: "usps-ground_saver" });
    if (processed.status === 409) return "sold out";
    if (processed.status !== 201) return `process-order ${processed.status}: ${await processed.text()}`;
    const { clientSecret } = (await processed.json()) as { clientSecret: string };
    const paid = await post("/api/local-payments/confirm", { clientSecret, cardNumber: "4242 4242 4242 4242" });
    const outcome = (await paid.json()) as { status?: string; message?: string };
    return outcome.status === "paid" ? "paid" : `confirm ${paid.status}: ${JSON.stringify(outcome)}`;
  } catch (error) {
    return `failed: ${(error as Error).message}`;
  } finally {
    if (failedOver()) failovers.push(n);
  }
}

/** Paid orders of the product per shopper, and succeeded test-card payments per order: each at most 1. */
async function paidTwice(productId: number) {
  const orders = await db
    .selectFrom("orders")
    .innerJoin("orderItems", "orderItems.orderId", "orders.id")
    .select(["orders.id", "orders.customerEmail"])
    .where("orderItems.productId", "=", productId)
    .where("orders.paidAt", "is not", null)
    .execute();
  const perShopper = new Map<string, number>();
  for (const order of orders) perShopper.set(order.customerEmail, (perShopper.get(order.customerEmail) ?? 0) + 1);
  const payments = await db
    .selectFrom("localPaymentIntents")
    .select(["orderId", (eb) => eb.fn.countAll<number>().as("payments")])
    .where(
      "orderId",
      "in",
      orders.map((order) => order.id),
    )
    .where("status", "=", "succeeded")
    .groupBy("orderId")
    .execute();
  return {
    paidOrders: orders.length,
    shoppersPaidTwice: [...perShopper].filter(([, count]) => count > 1),
    ordersPaidTwice: payments.filter((row) => Number(row.payments) > 1),
  };
}

/** GET /healthz of a store every 100 ms until stopped; every answer that was not a 200. */
function watch(store: BuiltStore) {
  const failures: string[] = [];
  let answers = 0;
  let running = true;
  const done = (async () => {
    while (running) {
      try {
        const { status } = await getFresh(`${store.baseUrl}/healthz`);
        if (status === 200) answers++;
        else failures.push(`status ${status}`);
      } catch (error) {
        failures.push((error as Error).message);
      }
      await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { answers, failures };
    },
  };
}

describe(`two store instances on one ${database.engine === "postgres" ? "PostgreSQL database" : "SQLite file"}`, () => {
  it("both serve, from their own processes, and the database was migrated once", async () => {
    const [pidA, pidB] = await Promise.all(stores.map(pidOf));
    expect(pidA).not.toBe(pidB);
    expect(stores[0]!.log()).toContain("Applied migrations: ");
    expect(stores[1]!.log()).not.toContain("Applied migrations");
    expect(stores[1]!.log()).not.toContain("Created the admin user");
  }, 30_000);

  it("sells the stock exactly once when one instance is SIGKILLed mid-rush and its shoppers carry on at the other", async () => {
    const stock = 5;
    const productId = await newProduct(stock);
    rushProductId = productId;
    const [victim, survivor] = [stores[0]!, stores[1]!];
    const survivorHealth = watch(survivor);
    const failovers: number[] = [];
    // 100 shoppers, half sent to each instance, 10 at a time, so the rush is still on when the plug is pulled.
    let next = 0;
    const outcomes: string[] = [];
    const crowd = Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < 100) outcomes.push(await shop(next++, productId, failovers));
      }),
    );
    const deadline = Date.now() + 120_000;
    while ((await unitsOf(db, productId)).sold < 1 && Date.now() < deadline) await sleep(20);
    await victim.killAll();
    const killedAtShopper = next;
    await crowd;
    const health = await survivorHealth.stop();

    expect(killedAtShopper).toBeLessThan(100);
    expect(outcomes.filter((o) => o !== "paid" && o !== "sold out")).toEqual([]);
    // Shoppers of the dead instance went on at the live one.
    expect(failovers.length).toBeGreaterThan(0);
    expect(health.failures).toEqual([]);
    expect(health.answers).toBeGreaterThan(0);

    const units = await unitsOf(db, productId);
    expect(units.left).toBeGreaterThanOrEqual(0);
    expect(units.sold + units.held + units.left).toBe(stock);
    expect(units.paidUnits).toBe(units.sold);
    expect(units.sold).toBeLessThanOrEqual(stock);
    const twice = await paidTwice(productId);
    expect(twice.shoppersPaidTwice).toEqual([]);
    expect(twice.ordersPaidTwice).toEqual([]);
    // Every shopper told "paid" has exactly one paid order, and no paid order is unknown to its shopper.
    expect(twice.paidOrders).toBe(outcomes.filter((o) => o === "paid").length);
    if (database.engine === "sqlite") {
      const { rows } = await sql<{ integrityCheck: string }>`PRAGMA integrity_check`.execute(db);
      expect(rows).toEqual([{ integrityCheck: "ok" }]);
    }

    // The killed instance comes back on the same database, finding nothing to migrate.
    stores[0] = await startBuiltStore({ dataDir, env: env() });
    expect(stores[0].log()).not.toContain("Applied migrations");
    const again = await unitsOf(db, productId);
    expect(again.sold + again.held + again.left).toBe(stock);
    expect(again.paidUnits).toBe(again.sold);
  }, 300_000);

  it("after the restart, one sweeper releases holds that expired, and the units sell again from either instance", async () => {
    // Two checkouts that never pay, one at each instance.
    const stock = 4;
    const productId = await newProduct(stock);
    for (const [n, store] of stores.entries()) {
      const jar = new CookieJar();
      const post = async (pathname: string, body: unknown) => {
        const response = await fetch(`${store.baseUrl}${pathname}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: jar.header() },
          body: JSON.stringify(body),
        });
        jar.store(response);
        return response;
      };
      expect((await post("/api/cart", { productId, quantity: 1 })).status).toBe(201);
      expect((await post("/api/process-order", { customerInfo: customerInfo(1000 + n), shippingMethod: "usps-ground_saver" })).status).toBe(
        201,
      );
    }
    expect(await unitsOf(db, productId)).toEqual({ sold: 0, held: 2, left: 2, paidUnits: 0 });

    // Held for HOLD_SECONDS; a sweep runs every 30 s at the leader. The killed instance may have
    // led: on SQLite its lease runs out 90 s after its last renewal; on PostgreSQL its advisory lock
    // went with its connections, so the next sweep of another instance takes over.
    const deadline = Date.now() + 240_000;
    while ((await unitsOf(db, productId)).held > 0 && Date.now() < deadline) await sleep(1000);
    expect(await unitsOf(db, productId)).toEqual({ sold: 0, held: 0, left: stock, paidUnits: 0 });
    const released = await db.selectFrom("inventoryHolds").select("status").where("productId", "=", productId).execute();
    expect(released.map((hold) => hold.status)).toEqual(["released", "released"]);

    // One leader, and it is one of the two live instances. SQLite: the lease row, holder
    // "host:pid:…". PostgreSQL: the one session holding the sweeper's advisory lock, named
    // "store sweeper (pid …)" (decision 0022); the killed instance's sessions died with it.
    const leaders =
      database.engine === "sqlite"
        ? (await db.selectFrom("leases").select("holder").where("name", "=", "sweeper").execute()).map((row) => row.holder.split(":")[1])
        : (
            await sql<{ pid: string }>`SELECT substring(a.application_name from 'pid ([0-9]+)') AS pid
              FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
              WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE 'store sweeper (pid %'`.execute(db)
          ).rows.map((row) => row.pid);
    expect(leaders).toHaveLength(1);
    expect(await Promise.all(stores.map(pidOf))).toContain(Number(leaders[0]));

    // Whatever the rush left held is back on the shelf too.
    const rush = await unitsOf(db, rushProductId);
    expect(rush.held).toBe(0);
    expect(rush.sold + rush.left).toBe(5);
    expect(rush.paidUnits).toBe(rush.sold);

    // Both instances sell the released units, and no more.
    const after = await Promise.all(Array.from({ length: stock + 4 }, (_, i) => shop(2000 + i, productId, [])));
    expect(after.filter((o) => o === "paid")).toHaveLength(stock);
    expect(after.filter((o) => o !== "paid" && o !== "sold out")).toEqual([]);
    expect(await unitsOf(db, productId)).toEqual({ sold: stock, held: 0, left: 0, paidUnits: stock });
  }, 330_000);
});

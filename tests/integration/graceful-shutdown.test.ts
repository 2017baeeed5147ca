// SIGTERM to `npm start` (two workers) in the middle of a rush (decision 0048): /readyz turns 503
// at once while /healthz stays 200 and the store still answers for SHUTDOWN_DRAIN_SECONDS; then
// requests under way finish, the queued events are written, and every process exits 0. No shopper
// told "paid" lacks a paid order, the books balance, and no hold is left stuck: started again, the
// store's sweeper puts every unit of an unpaid checkout back on the shelf once its hold runs out.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Db } from "#db/client";
import { mockServer } from "../mocks/server";
import { unitsOf } from "../setup/books";
import { getFresh, startBuiltStore, type BuiltStore } from "../setup/built-store";
import { builtStoreDatabase } from "../setup/built-store-database";
import { TMP_DIR } from "../setup/paths";
import { rushCustomerEmail, shopOnce } from "../setup/rush";

const dataDir = path.join(TMP_DIR, `shutdown-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
const database = builtStoreDatabase();
// A hold of 30 s, so that the test can watch an unpaid checkout's units come back.
// A function: on PostgreSQL the database's URL exists only once the file's beforeAll has run.
const env = () => ({
  WEB_CONCURRENCY: "2",
  CHECKOUTS_PER_IP: "100000",
  SHUTDOWN_DRAIN_SECONDS: "3",
  CHECKOUT_HOLD_MINUTES: "0.5",
  ...database.env(),
});
let store: BuiltStore;
let db: Db;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  mockServer.close();
  fs.mkdirSync(dataDir, { recursive: true });
  store = await startBuiltStore({ dataDir, env: env() });
  db = database.open(dataDir);
}, 330_000);

afterAll(async () => {
  await store?.stop();
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

it("drains, finishes what is under way, writes its events, loses no paid order and leaves no hold stuck", async () => {
  const stock = 30;
  const { id: productId } = await db
    .insertInto("products")
    .values({ name: `Drop ${crypto.randomUUID().slice(0, 6)}`, description: "Limited", priceCents: 9000, inventory: stock })
    .returning("id")
    .executeTakeFirstOrThrow();

  let next = 0;
  const outcomes = new Map<number, string>();
  const crowd = Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < 80) {
        const n = next++;
        outcomes.set(n, await shopOnce(store.baseUrl, productId, n).catch((error: Error) => `cut: ${error.message}`));
      }
    }),
  );
  const deadline = Date.now() + 120_000;
  while ((await unitsOf(db, productId)).sold < 3 && Date.now() < deadline) await sleep(20);

  const exited = new Promise<number | null>((resolve) => store.child.once("exit", (code) => resolve(code)));
  const signalledAt = Date.now();
  store.child.kill("SIGTERM");
  // During the drain: not ready, still alive, still answering; then the port closes.
  const probes: { ready: number; healthy: number; body: string; at: number }[] = [];
  for (;;) {
    const probe = await Promise.all([getFresh(`${store.baseUrl}/readyz`), getFresh(`${store.baseUrl}/healthz`)]).catch(() => null);
    if (!probe) break;
    probes.push({ ready: probe[0].status, healthy: probe[1].status, body: probe[0].body, at: Date.now() - signalledAt });
    await sleep(100);
  }
  expect(await exited).toBe(0);
  await crowd;

  // The primary passes the signal on to each worker: a probe a worker answers before it has the
  // signal may still say ready, but only in the first moment; after it, every probe says 503.
  expect(probes.filter((probe) => probe.ready !== 503).every((probe) => probe.ready === 200 && probe.at < 2_000)).toBe(true);
  const draining = probes.filter((probe) => probe.ready === 503);
  expect(draining.length).toBeGreaterThan(0);
  expect(new Set(probes.map((probe) => probe.healthy))).toEqual(new Set([200]));
  expect(JSON.parse(draining[0]!.body)).toMatchObject({ status: "unavailable", reason: "The store is shutting down." });
  // Some shoppers were still buying when the port closed.
  const told = [...outcomes].filter(([, outcome]) => outcome === "paid").map(([n]) => rushCustomerEmail(n));
  expect([...outcomes.values()].filter((outcome) => outcome !== "paid" && outcome !== "sold out" && !outcome.startsWith("cut"))).toEqual(
    [],
  );
  expect(next).toBeLessThan(80 + 10);

  // Every shopper told "paid" has exactly one paid order, and the books balance.
  const paidOrders = await db
    .selectFrom("orders")
    .innerJoin("orderItems", "orderItems.orderId", "orders.id")
    .select(["orders.id", "orders.customerEmail"])
    .where("orderItems.productId", "=", productId)
    .where("orders.paidAt", "is not", null)
    .execute();
  expect(paidOrders.map((order) => order.customerEmail).sort()).toEqual(told.sort());
  const units = await unitsOf(db, productId);
  expect(units.sold + units.held + units.left).toBe(stock);
  expect(units.paidUnits).toBe(units.sold);
  expect(units.sold).toBe(told.length);

  // The events of the last second were written before the exit: one payment event per paid order.
  const paymentEvents = await db
    .selectFrom("events")
    .select("orderId")
    .where("kind", "=", "payment")
    .where(
      "orderId",
      "in",
      paidOrders.map((order) => order.id),
    )
    .execute();
  expect(paymentEvents.map((event) => event.orderId).sort()).toEqual(paidOrders.map((order) => order.id).sort());

  // Started again, nothing stays held past its hold: the sweeper puts unpaid checkouts' units back.
  store = await startBuiltStore({ dataDir, env: env() });
  await expect.poll(async () => (await unitsOf(db, productId)).held, { timeout: 120_000, interval: 1_000 }).toBe(0);
  const settled = await unitsOf(db, productId);
  expect(settled).toEqual({ sold: told.length, held: 0, left: stock - told.length, paidUnits: told.length });
}, 420_000);

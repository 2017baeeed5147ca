// SIGTERM to `npm start` (two workers) in the middle of a rush (decision 0048): /readyz turns 503
// at once while /healthz stays 200 and the store still answers for SHUTDOWN_DRAIN_SECONDS; then
// requests under way finish, the queued events are written, and every process exits 0. No shopper
// told "paid" lacks a paid order, the books balance, and no hold is left stuck: started again, the
// store's sweeper puts every unit of an unpaid checkout back on the shelf once its hold runs out.
import crypto from "node:crypto";
import { expect, it } from "vitest";
import { unitsOf } from "../setup/books";
import { getFresh } from "../setup/built-store";
import { builtStoreForFile } from "../setup/built-store-fixture";
import { rushCustomerEmail, shopOnce } from "../setup/rush";

// A hold of 30 s, so that the test can watch an unpaid checkout's units come back.
const built = builtStoreForFile("shutdown", () => ({
  CHECKOUTS_PER_IP: "100000",
  SHUTDOWN_DRAIN_SECONDS: "3",
  CHECKOUT_HOLD_MINUTES: "0.5",
}));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it("drains, finishes what is under way, writes its events, loses no paid order and leaves no hold stuck", async () => {
  const stock = 30;
  const { id: productId } = await built.db
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
        outcomes.set(n, await shopOnce(built.store.baseUrl, productId, n).catch((error: Error) => `cut: ${error.message}`));
      }
    }),
  );
  const deadline = Date.now() + 120_000;
  while ((await unitsOf(built.db, productId)).sold < 3 && Date.now() < deadline) await sleep(20);

  const exited = new Promise<number | null>((resolve) => built.store.child.once("exit", (code) => resolve(code)));
  const signalledAt = Date.now();
  built.store.child.kill("SIGTERM");
  // During the drain: not ready, still alive, still answering; then the port closes.
  const probes: { ready: number; healthy: number; body: string; at: number }[] = [];
  for (;;) {
    const probe = await Promise.all([getFresh(`${built.store.baseUrl}/readyz`), getFresh(`${built.store.baseUrl}/healthz`)]).catch(
      () => null,
    );
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
  const paidOrders = await built.db
    .selectFrom("orders")
    .innerJoin("orderItems", "orderItems.orderId", "orders.id")
    .select(["orders.id", "orders.customerEmail"])
    .where("orderItems.productId", "=", productId)
    .where("orders.paidAt", "is not", null)
    .execute();
  expect(paidOrders.map((order) => order.customerEmail).sort()).toEqual(told.sort());
  const units = await unitsOf(built.db, productId);
  expect(units.sold + units.held + units.left).toBe(stock);
  expect(units.paidUnits).toBe(units.sold);
  expect(units.sold).toBe(told.length);

  // The events of the last second were written before the exit: one payment event per paid order.
  const paymentEvents = await built.db
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
  await built.restart();
  await expect.poll(async () => (await unitsOf(built.db, productId)).held, { timeout: 120_000, interval: 1_000 }).toBe(0);
  const settled = await unitsOf(built.db, productId);
  expect(settled).toEqual({ sold: told.length, held: 0, left: stock - told.length, paidUnits: told.length });
}, 420_000);

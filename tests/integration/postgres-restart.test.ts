// PostgreSQL goes away and comes back under two built stores (two `npm start`s on one database, as
// on two machines): its sessions ended by an administrator (pg_terminate_backend), then the whole
// server restarted (`pg_ctl restart -m fast`) in the middle of a rush. Every request gets an HTTP
// answer (a 503 with Retry-After while the database is out of reach), the same processes answer
// afterwards, and the books balance (decision 0041). Runs on a PostgreSQL server of its own, so
// that restarting it disturbs no other test file.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Db } from "#db/client";
import { mockServer } from "../mocks/server";
import { unitsOf } from "../setup/books";
import { getFresh, startBuiltStore, type BuiltStore } from "../setup/built-store";
import { CookieJar } from "../setup/http";
import { TMP_DIR } from "../setup/paths";
import { startPostgres, type PostgresServer } from "../setup/postgres";
import { describeOnPostgres, postgresSkipped } from "../setup/postgres-db";

const BUSY = { message: "The store is busy for a moment. Please try again.", errors: {} };
const run = `pg-restart-${process.pid}-${crypto.randomUUID().slice(0, 8)}`;
const dirs = [path.join(TMP_DIR, `${run}-a`), path.join(TMP_DIR, `${run}-b`)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const customerInfo = (n: number) => ({
  email: `restart${n}@example.com`,
  name: `Shopper ${n}`,
  phone: "",
  street: "5 Elm St",
  city: "Austin",
  state: "TX",
  zipCode: "73301",
  country: "US",
});

/** One request's fate: its HTTP status and body, or what stopped it from getting one. */
type Answered = { status: number; body: string; retryAfter: string | null };
type Answer = Answered | { failed: string };

describeOnPostgres(
  postgresSkipped ? `PostgreSQL going away and coming back (skipped: ${postgresSkipped})` : "PostgreSQL going away and coming back",
  () => {
    let server: PostgresServer;
    let url = "";
    const stores: BuiltStore[] = [];
    let db: Db;
    // Every answer and failure of every request the tests send, for the "no connection reset" checks.
    const noAnswer: string[] = [];

    beforeAll(async () => {
      // Only the stores on loopback are called: no vendor to intercept.
      mockServer.close();
      server = await startPostgres();
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query("CREATE DATABASE store");
      await admin.end();
      url = server.urlFor("store");
      for (const dir of dirs) fs.mkdirSync(dir, { recursive: true });
      const env = { DATABASE_URL: url, WEB_CONCURRENCY: "1", SESSION_SECRET: "pg-restart-secret", CHECKOUTS_PER_IP: "100000" };
      // The first migrates and seeds; the second finds it done.
      stores.push(await startBuiltStore({ dataDir: dirs[0]!, env }));
      stores.push(await startBuiltStore({ dataDir: dirs[1]!, env }));
      db = openDatabase({ engine: "postgres", url, poolSize: 2 });
    }, 600_000);

    afterAll(async () => {
      await Promise.all(stores.map((store) => store.stop()));
      await db?.destroy();
      server?.stop();
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    }, 60_000);

    async function pidOf(store: BuiltStore): Promise<number> {
      return (JSON.parse((await getFresh(`${store.baseUrl}/healthz`)).body) as { pid: number }).pid;
    }

    async function send(store: BuiltStore, pathname: string, init: RequestInit & { jar?: CookieJar } = {}): Promise<Answer> {
      const { jar, ...rest } = init;
      try {
        const response = await fetch(`${store.baseUrl}${pathname}`, {
          ...rest,
          headers: { ...(rest.headers as Record<string, string>), ...(jar ? { Cookie: jar.header() } : {}) },
          redirect: "manual",
          signal: AbortSignal.timeout(30_000),
        });
        jar?.store(response);
        return { status: response.status, body: await response.text(), retryAfter: response.headers.get("Retry-After") };
      } catch (error) {
        const failure = `${pathname}: ${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? "")}`;
        noAnswer.push(failure);
        return { failed: failure };
      }
    }

    const post = (store: BuiltStore, pathname: string, body: unknown, jar: CookieJar) =>
      send(store, pathname, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), jar });

    /** A 503 as the store answers a lost database: Retry-After, and on /api the JSON error. */
    function expectBusy(answer: Answered, api: boolean) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      if (api) expect(JSON.parse(answer.body)).toEqual(BUSY);
      else expect(answer.body).toContain("Busy for a moment");
    }

    async function newProduct(inventory: number): Promise<number> {
      const { id } = await db
        .insertInto("products")
        .values({ name: `Drop ${crypto.randomUUID().slice(0, 6)}`, description: "Limited", priceCents: 9000, inventory })
        .returning("id")
        .executeTakeFirstOrThrow();
      return id;
    }

    /** Both stores answer /healthz 200 (their database answers): how long that took, in ms. */
    async function bothHealthy(withinMs: number): Promise<number> {
      const start = Date.now();
      for (const store of stores) {
        for (;;) {
          const health = await send(store, "/healthz");
          if ("status" in health && health.status === 200) break;
          if (Date.now() - start > withinMs) throw new Error(`${store.baseUrl} did not answer 200 within ${withinMs} ms`);
          await sleep(100);
        }
      }
      return Date.now() - start;
    }

    it("answers 503 then 200 when an administrator ends the stores' sessions, from the same processes", async () => {
      const pids = await Promise.all(stores.map(pidOf));
      const productId = await newProduct(1000);
      const answers: (Answered & { api: boolean })[] = [];
      let ending = true;
      // Shoppers bagging and looking at their bag (a page and the API, each a transaction or a
      // few queries), at both stores, while every session of the stores is ended over and over.
      const crowd = Array.from({ length: 8 }, async (_, n) => {
        const jar = new CookieJar();
        const store = stores[n % 2]!;
        while (ending) {
          for (const [api, answer] of [
            [true, await post(store, "/api/cart", { productId, quantity: 1 }, jar)],
            [false, await send(store, "/cart", { jar })],
          ] as const) {
            if ("status" in answer) answers.push({ ...answer, api });
          }
        }
      });
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        for (let round = 0; round < 15; round++) {
          await admin.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
          );
          await sleep(100);
        }
      } finally {
        ending = false;
        await admin.end();
        await Promise.all(crowd);
      }

      expect(noAnswer).toEqual([]);
      const busy = answers.filter((answer) => answer.status === 503);
      expect(busy.length, "some requests met a connection that was ended").toBeGreaterThan(0);
      for (const answer of busy) expectBusy(answer, answer.api);
      // Pages too: the branded page, not a 500.
      expect(busy.filter((answer) => !answer.api).length, "some pages met a connection that was ended").toBeGreaterThan(0);
      expect(answers.filter((answer) => answer.status !== 503 && answer.status >= 400)).toEqual([]);

      // The pool reconnects by itself: the next requests answer as usual, from the same processes.
      expect(await bothHealthy(5_000)).toBeLessThan(5_000);
      for (const store of stores) {
        const jar = new CookieJar();
        const added = await post(store, "/api/cart", { productId, quantity: 1 }, jar);
        expect("status" in added && added.status).toBe(201);
        const page = await send(store, "/cart", { jar });
        expect("status" in page && page.status).toBe(200);
      }
      expect(await Promise.all(stores.map(pidOf))).toEqual(pids);
    }, 120_000);

    it("keeps every store up through a PostgreSQL restart mid-rush: no reset, no oversell, every payment answered is paid", async () => {
      const pids = await Promise.all(stores.map(pidOf));
      const stock = 10;
      const productId = await newProduct(stock);
      let busyAnswers = 0;

      /**
       * One step of a shopper, sent to alternate stores (a non-sticky balancer); a 503 is tried
       * again after a moment, as its Retry-After says (shortened here), for up to 30 s.
       */
      async function step(n: number, at: { store: number }, pathname: string, body: unknown, jar: CookieJar): Promise<Answer> {
        for (let attempt = 0; ; attempt++) {
          const store = stores[at.store]!;
          at.store = 1 - at.store;
          const answer = await post(store, pathname, body, jar);
          if (!("status" in answer) || answer.status !== 503 || attempt >= 60) return answer;
          busyAnswers++;
          expectBusy(answer, true);
          await sleep(500);
        }
      }

      /** Bag one unit, Process Order, pay with the test card: "paid", "sold out" or what went wrong. */
      async function shop(n: number): Promise<string> {
        const jar = new CookieJar();
        const at = { store: n % 2 };
        const describe = async (what: string, answer: Answer) =>
          "status" in answer ? `${what} ${answer.status}: ${answer.body}` : answer.failed;
        const added = await step(n, at, "/api/cart", { productId, quantity: 1 }, jar);
        if ("status" in added && added.status === 409) return "sold out";
        if (!("status" in added) || added.status !== 201) return describe("cart", added);
        const processed = await step(
          n,
          at,
          "/api/process-order",
          { customerInfo: customerInfo(n), shippingMethod: "usps-ground_saver" },
          jar,
        );
        if ("status" in processed && processed.status === 409) return "sold out";
        if (!("status" in processed) || processed.status !== 201) return describe("process-order", processed);
        const { clientSecret } = JSON.parse(processed.body) as { clientSecret: string };
        const paid = await step(n, at, "/api/local-payments/confirm", { clientSecret, cardNumber: "4242 4242 4242 4242" }, jar);
        if (!("status" in paid) || paid.status !== 200) return describe("confirm", paid);
        const outcome = JSON.parse(paid.body) as { status?: string };
        return outcome.status === "paid" ? "paid" : describe("confirm", paid);
      }

      // 60 shoppers for 10 units, 12 at a time, so the rush is still on when the server restarts.
      let next = 0;
      const outcomes = new Map<number, string>();
      const crowd = Promise.all(
        Array.from({ length: 12 }, async () => {
          while (next < 60) {
            const n = next++;
            outcomes.set(n, await shop(n));
          }
        }),
      );
      const deadline = Date.now() + 120_000;
      while ((await unitsOf(db, productId)).sold < 1 && Date.now() < deadline) await sleep(20);
      const restartedAtShopper = next;
      await server.restart();
      const restartedAt = new Date().toISOString();
      const backWithinMs = await bothHealthy(15_000);
      await crowd;

      // Every request got an HTTP answer, and the stores answered again within seconds.
      expect(noAnswer).toEqual([]);
      expect(backWithinMs).toBeLessThan(15_000);
      expect(restartedAtShopper).toBeLessThan(60);
      expect([...outcomes.values()].filter((outcome) => outcome !== "paid" && outcome !== "sold out")).toEqual([]);
      // The same processes answer: no worker died and was replaced.
      expect(await Promise.all(stores.map(pidOf))).toEqual(pids);

      // Nothing oversold, and every shopper told "paid" has exactly one paid order.
      const units = await unitsOf(db, productId);
      expect(units.left).toBeGreaterThanOrEqual(0);
      expect(units.sold + units.held + units.left).toBe(stock);
      expect(units.sold).toBeLessThanOrEqual(stock);
      expect(units.paidUnits).toBe(units.sold);
      const paidOrders = await db
        .selectFrom("orders")
        .innerJoin("orderItems", "orderItems.orderId", "orders.id")
        .select(["orders.id", "orders.customerEmail", "orders.paidAt"])
        .where("orderItems.productId", "=", productId)
        .where("orders.paidAt", "is not", null)
        .execute();
      const told = [...outcomes].filter(([, outcome]) => outcome === "paid").map(([n]) => customerInfo(n).email);
      expect(paidOrders.map((order) => order.customerEmail).sort()).toEqual(told.sort());

      // The fulfilment job went on by itself: orders paid after the restart get their e-mail and label.
      await expect
        .poll(
          async () =>
            (
              await db
                .selectFrom("orders")
                .select("id")
                .where(
                  "id",
                  "in",
                  paidOrders.map((order) => order.id),
                )
                .where("fulfilledAt", "is", null)
                .execute()
            ).length,
          { timeout: 60_000, interval: 500 },
        )
        .toBe(0);
      expect(paidOrders.some((order) => order.paidAt! > restartedAt)).toBe(true);
      // And so did the event writer: the orders placed since are counted.
      await expect
        .poll(
          async () =>
            (await db.selectFrom("events").select("id").where("kind", "=", "order").where("occurredAt", ">", restartedAt).execute()).length,
          { timeout: 10_000, interval: 250 },
        )
        .toBeGreaterThan(0);
      // The restart was felt, as a 503 to retry, not as a reset or a dead store.
      expect(busyAnswers).toBeGreaterThan(0);
    }, 300_000);
  },
);

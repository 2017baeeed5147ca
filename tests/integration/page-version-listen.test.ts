// On PostgreSQL a process's caches hear of another process's write at once (LISTEN page_version,
// decision 0022) instead of at their next poll of the counter. The cache here polls once a minute
// and keeps answers for a minute: only the notification can make it drop its copy in time.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase, type Db } from "#db/client";
import { answerCache } from "#server/http/cache/answer-cache";
import { pageVersionMoved } from "#server/http/cache/version-reader";
import { readPageVersions, watchPageVersion } from "#server/services/store/page-version";
import { mockServer } from "../mocks/server";
import { createPostgresTestContext } from "../setup/postgres-context";
import { describeOnPostgres } from "../setup/postgres-db";

describeOnPostgres("page-cache invalidation by LISTEN on PostgreSQL", () => {
  const reader = createPostgresTestContext();
  let writer: Db;
  let server: http.Server;
  let base = "";
  let stopWatching: () => Promise<void> = async () => {};
  let productId = 0;

  /** The backends LISTENing in this database (the reader process's own connection). */
  const listeners = async () =>
    (
      await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND query ILIKE 'LISTEN%'`.execute(writer)
    ).rows.map((row) => row.pid);

  async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, ms = 10_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await what();
      if (ok(value) || Date.now() > deadline) return value;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  const productList = async () => (await fetch(`${base}/api/products`)).text();

  beforeAll(async () => {
    mockServer.close();
    const { ctx } = reader;
    // Another process (or machine): its own pool on the same database.
    writer = openDatabase(ctx.config.database);
    ({ id: productId } = await ctx.db
      .insertInto("products")
      .values({ name: "Before", description: "A tee", priceCents: 3000, inventory: 5 })
      .returning("id")
      .executeTakeFirstOrThrow());
    const cache = answerCache({
      paths: ["/api/products"],
      render: async () => Response.json(await ctx.db.selectFrom("products").select(["id", "name", "inventory"]).execute()),
      readVersion: async () => {
        const versions = await readPageVersions(ctx);
        return `${versions.all}.${versions.list}`;
      },
      // Far beyond the test: the poll and the TTL never refresh the copy in time.
      versionEveryMs: 60_000,
      ttlMs: 60_000,
    });
    server = http.createServer((req, res) =>
      cache(req, res, () => {
        res.writeHead(404);
        res.end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    stopWatching = watchPageVersion(ctx, pageVersionMoved);
    expect(await until(listeners, (pids) => pids.length === 1)).toHaveLength(1);
  });

  afterAll(async () => {
    await stopWatching();
    await new Promise((resolve) => server?.close(resolve));
    await writer?.destroy();
  });

  it("drops the cached answer within milliseconds of another process's write", async () => {
    expect(await productList()).toContain('"name":"Before"');
    // Kept: the same copy again.
    expect(await productList()).toContain('"name":"Before"');

    await writer.updateTable("products").set({ name: "After" }).where("id", "=", productId).execute();
    // From the commit: the NOTIFY goes out then.
    const wroteAt = Date.now();
    const body = await until(productList, (text) => text.includes('"name":"After"'), 5_000);
    const tookMs = Date.now() - wroteAt;
    expect(body).toContain('"name":"After"');
    console.log(`page-version NOTIFY → fresh answer in ${tookMs} ms`);
    // This cache polls once a minute: only the notification can refresh it this soon. (In the store
    // the poll is every 250 ms; measured here: 40–150 ms from the write on a loaded 2-core machine,
    // most of it the cache's own render.)
    expect(tookMs).toBeLessThan(500);
  });

  it("listens again after losing its connection, and catches up on what it missed", async () => {
    const [before] = await listeners();
    await sql`SELECT pg_terminate_backend(${before!}::int, 5000)`.execute(writer);
    // Written while nobody listens: the notification is lost; reconnecting makes the cache read the counter.
    await writer.updateTable("products").set({ name: "While away" }).where("id", "=", productId).execute();
    const pids = await until(listeners, (now) => now.length === 1 && now[0] !== before);
    expect(pids).toHaveLength(1);
    expect(pids[0]).not.toBe(before);
    expect(await until(productList, (text) => text.includes('"name":"While away"'), 5_000)).toContain('"name":"While away"');

    await writer.updateTable("products").set({ inventory: 4 }).where("id", "=", productId).execute();
    const wroteAt = Date.now();
    expect(await until(productList, (text) => text.includes('"inventory":4'), 5_000)).toContain('"inventory":4');
    expect(Date.now() - wroteAt).toBeLessThan(500);
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "#db/client";
import { loadConfig } from "#server/config";
import { systemClock, type AppContext } from "#server/context";
import { linkToken } from "#server/services/drop/early-access-pass";
import { claimEarlyAccessLink } from "#server/services/drop/early-access";
import { mockServer } from "../mocks/server";
import { startBuiltStore, type BuiltStore } from "../setup/built-store";
import { builtStoreDatabase } from "../setup/built-store-database";

// Decision 0020 and 0014: the built store's shared page cache, read at the same time by a browser
// with an early-access pass and by shoppers without one. The restricted product must reach the
// first only, and never through the cache.
const SECRET = "early-access-cache-test-secret";
const NAME = "Secret Cache Parka";
let store: BuiltStore;
const database = builtStoreDatabase();
let base = "";
let dataDir = "";
let db: Db;
let productId = 0;
let pass = "";

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "early-cache-"));
  // The store on loopback is real HTTP, not a vendor to mock (its port is known once it listens).
  mockServer.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()));
  // One process, so that the cache under test is the one answering every request.
  store = await startBuiltStore({ dataDir, env: { WEB_CONCURRENCY: "1", SESSION_SECRET: SECRET, ...database.env() } });
  base = store.baseUrl;
  // The store has migrated and seeded its database: add the drop and one claimed link to it.
  const config = { ...loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, NODE_ENV: "test" }), database: database.target(dataDir) };
  db = openDatabase(config.database);
  const ctx: AppContext = { db, config, clock: systemClock };
  const now = new Date();
  const release = new Date(now.getTime() + 10 * 60_000).toISOString();
  ({ id: productId } = await db
    .insertInto("products")
    .values({
      name: NAME,
      description: "Only for early access.",
      priceCents: 9000,
      inventory: 3,
      isCountdownRestricted: 1,
      countdownReleaseDate: release,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow());
  const { id: linkId } = await db
    .insertInto("earlyAccessLinks")
    .values({ email: "fan@example.com", createdAt: now.toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  pass = (await claimEarlyAccessLink(ctx, linkToken(SECRET, linkId), null)).pass!;
}, 320_000);
afterAll(async () => {
  await store?.stop();
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
// Each test's handlers are reset after it: the loopback passthrough again for each.
beforeEach(() => mockServer.use(http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough())));

async function read(page: string, cookie: string | null) {
  const response = await fetch(base + page, { headers: cookie ? { Cookie: cookie } : {}, redirect: "manual" });
  return {
    status: response.status,
    cache: response.headers.get("x-page-cache"),
    control: response.headers.get("cache-control"),
    html: await response.text(),
  };
}

describe("early access and the shared page cache", () => {
  it("serves the pass holder its own render and everyone else, at the same time, the cached page without the drop", async () => {
    const holder = `early_access=${pass}`;
    const forged = `early_access=${pass.slice(0, -4)}AAAA`;
    const others = [null, "cart=someone-elses-bag", forged];
    const pages = ["/store", `/store/${productId}`];
    const reads = Array.from({ length: 8 }, () => pages)
      .flat()
      .flatMap((page) => [
        read(page, holder).then((r) => ({ page, who: "holder", ...r })),
        ...others.map((cookie) => read(page, cookie).then((r) => ({ page, who: cookie ?? "none", ...r }))),
      ]);
    const results = await Promise.all(reads);
    for (const r of results) {
      if (r.who === "holder") {
        expect(r.status, r.page).toBe(200);
        expect(r.html).toContain(NAME);
        expect(r.cache).toBeNull();
        expect(r.control).toBe("private, no-store");
      } else {
        expect(r.html, `${r.who} on ${r.page}`).not.toContain(NAME);
        if (r.page === "/store") expect(r.cache).toBe("HIT");
        else expect(r.status).toBe(404);
      }
    }
    // And afterwards too: nothing the holder's reads did stayed behind in the cache.
    const after = await read("/store", null);
    expect(after.cache).toBe("HIT");
    expect(after.html).not.toContain(NAME);
  }, 60_000);

  it("answers the holder's product list and pictures privately, and everyone else, at the same time, the shared list without the drop", async () => {
    // Issue 21, item 10: the list a pass opens is that browser's; no shared cache may keep it.
    const holder = `early_access=${pass}`;
    const others = [null, "cart=someone-elses-bag", `early_access=${pass.slice(0, -4)}AAAA`];
    const paths = ["/api/products", `/api/products/${productId}/images`];
    const reads = Array.from({ length: 8 }, () => paths)
      .flat()
      .flatMap((path) => [
        read(path, holder).then((r) => ({ path, who: "holder", ...r })),
        ...others.map((cookie) => read(path, cookie).then((r) => ({ path, who: cookie ?? "none", ...r }))),
      ]);
    for (const r of await Promise.all(reads)) {
      if (r.who === "holder") {
        expect(r.status, r.path).toBe(200);
        expect(r.control, r.path).toBe("private, no-store");
        if (r.path === "/api/products") expect(r.html).toContain(NAME);
      } else {
        expect(r.html, `${r.who} on ${r.path}`).not.toContain(NAME);
        expect(r.control ?? "", `${r.who} on ${r.path}`).not.toMatch(/private/);
        if (r.path !== "/api/products") expect(r.status).toBe(404);
      }
    }
    const after = await read("/api/products", null);
    expect(after.html).not.toContain(NAME);
  }, 60_000);
});

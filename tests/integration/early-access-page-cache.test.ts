import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../db/client";
import { loadConfig } from "../../server/config";
import { systemClock, type AppContext } from "../../server/context";
import { linkToken } from "../../server/services/early-access-pass";
import { claimEarlyAccessLink } from "../../server/services/early-access";
import { mockServer } from "../mocks/server";

// Decision 0020 and 0014: the built store's shared page cache, read at the same time by a browser
// with an early-access pass and by shoppers without one. The restricted product must reach the
// first only, and never through the cache.
const root = path.resolve(import.meta.dirname, "../..");
const SECRET = "early-access-cache-test-secret";
const NAME = "Secret Cache Parka";
let server: ChildProcess;
let base = "";
let dataDir = "";
let db: Db;
let productId = 0;
let pass = "";

const newest = (dir: string): number =>
  fs.readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const full = path.join(dir, entry.name);
    return Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
  }, 0);

function ensureBuild() {
  const built = path.join(root, "build/server/index.js");
  const sources = Math.max(...["app", "server", "db"].map((dir) => newest(path.join(root, dir))));
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs > sources) return;
  const result = spawnSync("npx", ["remix", "vite:build"], { cwd: root, stdio: "ignore", timeout: 170_000 });
  if (result.status !== 0) throw new Error("The build failed.");
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  ensureBuild();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "early-cache-"));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  mockServer.use(http.all(`${base}/*`, () => passthrough()));
  server = spawn(process.execPath, [path.join(root, "server.js")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      SESSION_SECRET: SECRET,
      VITEST: "",
    },
    stdio: "ignore",
  });
  for (
    let i = 0;
    i < 120 &&
    !(await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false));
    i++
  ) {
    await new Promise((r) => setTimeout(r, 250));
  }
  // The store has migrated and seeded its database: add the drop and one claimed link to it.
  const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET, NODE_ENV: "test" });
  db = openDatabase(config.databaseFile);
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
}, 200_000);
afterAll(async () => {
  server?.kill();
  await db?.destroy();
  fs.rmSync(dataDir, { recursive: true, force: true });
});
beforeEach(() => {
  mockServer.use(http.all(`${base}/*`, () => passthrough()));
});

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
});

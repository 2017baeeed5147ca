// The built store as the bench runs it: as `npm start` does (scripts/start.mjs, `workers` worker
// processes; 1 is server.js in one process), in production on loopback, a fresh data folder,
// payments in test mode, rate limits wide enough for a crowd that all comes from 127.0.0.1.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { cookiesOf, jsonOf, textOf } from "./http-client.mjs";

// The store measured: this checkout's, or (`--baseline <ref>`, bench/baseline.mjs) an earlier
// commit's built in a worktree of its own. The bench's own code is always this checkout's.
const root = process.env.BENCH_STORE_ROOT ? path.resolve(process.env.BENCH_STORE_ROOT) : path.resolve(import.meta.dirname, "..");

// Set in a developer's shell or .env, these would reach a vendor or another database. Set empty
// rather than deleted: start.mjs loads .env, which fills only variables that are not set at all.
const NOT_INHERITED = [
  "STRIPE_SECRET_KEY",
  "STRIPE_PUBLISHABLE_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "SHIPPO_API_KEY",
  "POSTMARK_SERVER_TOKEN",
  "PUBLIC_URL",
  "PAYMENTS",
  "DATABASE_URL",
  "TRUST_PROXY",
];

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return newest;
}

/** start.mjs would rebuild a stale build inside the timed run: refuse instead (and never bench old code). */
export function assertBuilt() {
  const built = path.join(root, "build/server/index.js");
  if (!fs.existsSync(built)) throw new Error("No build: run `npm run build` first.");
  const builtAt = fs.statSync(built).mtimeMs;
  if (["app", "server", "db"].some((dir) => newestMtime(path.join(root, dir)) > builtAt)) {
    throw new Error("The build is older than the sources: run `npm run build` first.");
  }
}

/**
 * One store as the bench runs it. `dataDir`, `sessionSecret`, `admin` and `databaseUrl` are given
 * when several instances share one database (startStores); alone, it makes its own data folder.
 */
export async function startStore({ workers, dataDir, sessionSecret, admin, databaseUrl }) {
  const ownsData = !dataDir;
  dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), "store-bench-"));
  admin ??= { username: "bench-admin", password: randomBytes(12).toString("hex") };
  const port = await freePort();
  const env = { ...process.env };
  delete env.BENCH_STORE_ROOT;
  for (const name of NOT_INHERITED) env[name] = "";
  Object.assign(env, {
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    ADMIN_EMAIL: "bench@example.com",
    LOGIN_ATTEMPTS_PER_IP: "1000000",
    SUBSCRIBES_PER_IP: "1000000",
    CHECKOUTS_PER_IP: "1000000",
    WEB_CONCURRENCY: String(workers),
  });
  if (sessionSecret) env.SESSION_SECRET = sessionSecret;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  // A CPU profile per store process, written when it stops (cluster workers inherit the primary's flags).
  const profile = env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(env.BENCH_CPU_PROF)}`] : [];
  // Its own process group, so that a kill reaches the workers too.
  const flags = (env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...profile, ...flags, path.join(root, "scripts/start.mjs")], {
    cwd: root,
    env,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // However the bench ends (its own time bound included), the store and its temp data go with it.
  const killAll = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  const cleanUp = () => {
    if (ownsData) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  process.once("exit", () => {
    killAll();
    cleanUp();
  });
  const base = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    }
    killAll();
  };

  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || i > 240) {
      await stop();
      cleanUp();
      throw new Error(`The store did not start.\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const database = databaseUrl ? { engine: "postgres", url: databaseUrl } : { engine: "sqlite", file: path.join(dataDir, "store.db") };
  return { base, pid: child.pid, dataDir, database, databaseFile: database.file, admin, stop, cleanUp, stderr: () => stderr };
}

/**
 * A throwaway PostgreSQL server (initdb in a temporary folder, a free loopback port; the test
 * harness's own helper, tests/setup/postgres.ts, loaded through tsx), stopped when the bench exits.
 */
async function throwawayPostgres() {
  const { tsImport } = await import("tsx/esm/api");
  const { startPostgres } = await tsImport("../tests/setup/postgres.ts", import.meta.url);
  const server = await startPostgres();
  process.once("exit", () => server.stop());
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query("CREATE DATABASE store_bench");
  } finally {
    await admin.end();
  }
  return { url: server.urlFor("store_bench"), stop: () => server.stop() };
}

/**
 * `instances` separate stores (each as `npm start` runs it, `workers` processes, its own port) on
 * one database: the SQLite file of one shared data folder, or PostgreSQL (`database` "postgres":
 * a throwaway server; a postgres:// URL: that database, which must be empty). One shared session
 * secret, as a deployer sets on every box. The first instance starts alone and migrates, seeds
 * and creates the admin; the others start after it, finding all that done (as a rolling deploy).
 */
export async function startStores({ instances, workers, database = "sqlite" }) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-bench-"));
  process.once("exit", () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const postgres = database === "postgres" ? await throwawayPostgres() : null;
  const databaseUrl = postgres?.url ?? (database.startsWith("postgres") ? database : undefined);
  const shared = {
    workers,
    dataDir,
    databaseUrl,
    sessionSecret: randomBytes(32).toString("base64url"),
    admin: { username: "bench-admin", password: randomBytes(12).toString("hex") },
  };
  const stores = [await startStore(shared)];
  try {
    stores.push(...(await Promise.all(Array.from({ length: instances - 1 }, () => startStore(shared)))));
  } catch (error) {
    await Promise.all(stores.map((store) => store.stop()));
    throw error;
  }
  return {
    stores,
    bases: stores.map((store) => store.base),
    admin: shared.admin,
    database: stores[0].database,
    stop: () => Promise.all(stores.map((store) => store.stop())),
    cleanUp: () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      postgres?.stop();
    },
    stderr: () => stores.map((store, i) => (store.stderr() ? `instance ${i + 1}: ${store.stderr()}` : "")).join(""),
  };
}

/** Signs in as the bench's admin and puts a product on sale with the given stock; returns its id. */
export async function createDropProduct(client, admin, units) {
  const login = await client.request("POST", "/api/login", { body: { username: admin.username, password: admin.password } });
  if (login.status !== 200) throw new Error(`Admin sign-in answered ${login.status}: ${textOf(login)}`);
  const created = await client.request("POST", "/api/admin/products", {
    headers: { Cookie: cookiesOf(login) },
    body: {
      name: "Bench Drop Hoodie",
      description: "The limited piece every shopper in the bench wants.",
      price: 120,
      inventory: units,
      weight: 2,
    },
  });
  if (created.status !== 201) throw new Error(`Creating the product answered ${created.status}: ${textOf(created)}`);
  return jsonOf(created).id;
}

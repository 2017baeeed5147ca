import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { TMP_DIR } from "./paths";

const root = path.resolve(import.meta.dirname, "../..");

/** A port on loopback that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** GET on a connection of its own (no keep-alive), so that node:cluster may hand it to any worker. */
export function getFresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: 10_000 }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("timeout", () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on("error", reject);
  });
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * Builds the store when scripts/start.mjs would (no build, or sources newer than it), one test
 * file at a time: test files run side by side, and each one's `npm start` would otherwise build
 * into the same folder as another's (a fresh clone has no build). The lock is a folder under
 * tests/.tmp, which the global setup empties, so a killed run leaves none behind.
 */
export async function buildIfStale(): Promise<void> {
  const lock = path.join(TMP_DIR, "build.lock");
  fs.mkdirSync(TMP_DIR, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    const built = path.join(root, "build/server/index.js");
    const stale = !fs.existsSync(built) || ["app", "server", "db"].some((dir) => newestMtime(dir) > fs.statSync(built).mtimeMs);
    if (!stale) return;
    const result = spawnSync("npm", ["run", "build"], {
      cwd: root,
      stdio: "pipe",
      encoding: "utf8",
      // As `npm start` builds: vitest's own NODE_ENV and VITEST would change what the build makes.
      env: { ...process.env, NODE_ENV: "production", VITEST: "" },
    });
    if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export interface BuiltStore {
  baseUrl: string;
  child: ChildProcess;
  log(): string;
  /** SIGTERM to the primary (a graceful stop), resolved when it has exited. */
  stop(): Promise<void>;
  /** SIGKILL to the whole process group, primary and workers at once: a power cut. */
  killAll(): Promise<void>;
}

/**
 * `npm start` (scripts/start.mjs: builds if the build is missing or stale, then serves) in its own
 * process group, on a free loopback port and the given data folder, with no payment keys.
 * Resolves once /healthz answers.
 */
export async function startBuiltStore(options: { dataDir: string; env?: Record<string, string> }): Promise<BuiltStore> {
  await buildIfStale();
  const port = await freePort();
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: options.dataDir,
      STRIPE_SECRET_KEY: "",
      STRIPE_PUBLISHABLE_KEY: "",
      STRIPE_WEBHOOK_SECRET: "",
      PAYMENTS: "",
      PUBLIC_URL: "",
      VITEST: "",
      ...options.env,
    },
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const store: BuiltStore = {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    log: () => output,
    async stop() {
      if (gone()) return;
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      if (!gone()) await store.killAll();
    },
    async killAll() {
      if (gone()) return;
      process.kill(-child.pid!, "SIGKILL");
      await exited;
    },
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await getFresh(`${store.baseUrl}/healthz`)).status === 200) return store;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || gone()) {
      await store.killAll();
      throw new Error(`The store did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// Starts the built store (server.js) as its own process on a free port with a fresh DATA_DIR:
// the shared store of run.ts, and the ones tests start for themselves (hosted-checkout.e2e.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../../..");

export interface StoreProcess {
  baseUrl: string;
  port: number;
  /** Holds the store's database file and uploads. */
  dataDir: string;
  /** Ends the process and removes its data folder. */
  stop: () => Promise<void>;
  /** What the process printed so far. */
  log: () => string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      if (address === null || typeof address === "string") return reject(new Error("no port"));
      probe.close(() => resolve(address.port));
    });
  });
}

/**
 * `env` is added to the defaults (production, loopback, a fresh data folder); `nodeArgs` go before
 * server.js (say, `--import` preloads). Resolves once /healthz answers.
 */
export async function startStore(
  options: { name?: string; env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<StoreProcess> {
  // A port found free can be taken again before the store binds it (another server in the same test
  // asks the OS for one too): start again on another port rather than fail the test.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStoreOnce(options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes("EADDRINUSE")) throw error;
    }
  }
}

async function startStoreOnce({
  name = "e2e",
  env = {},
  nodeArgs = [],
}: { name?: string; env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<StoreProcess> {
  const dataDir = path.join(root, "tests/.tmp", `${name}-${Date.now()}-${process.pid}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, "server.js"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`The store did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, port, dataDir, stop, log: () => output };
}

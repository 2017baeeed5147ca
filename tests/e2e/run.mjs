// End-to-end: starts the built store on a free port with a fresh DATA_DIR, then runs every
// tests/e2e/*.e2e.mjs file with node's test runner against it, and stops the store.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = path.join(root, "tests/.tmp", `e2e-${Date.now()}`);
fs.mkdirSync(dataDir, { recursive: true });

const port = await new Promise((resolve) => {
  const probe = net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = probe.address();
    probe.close(() => resolve(port));
  });
});

const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: String(port),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  ADMIN_USERNAME: "e2e-admin",
  ADMIN_PASSWORD: "e2e-admin-password",
  ADMIN_EMAIL: "e2e-admin@example.com",
  BRAND_NAME: "Legacy",
  // Every browser comes from 127.0.0.1 here; the per-address limits have their own integration tests.
  LOGIN_ATTEMPTS_PER_IP: "1000",
  SUBSCRIBES_PER_IP: "1000",
  CHECKOUTS_PER_IP: "1000",
};
const server = spawn(process.execPath, [path.join(root, "server.js")], { env, stdio: ["ignore", "pipe", "pipe"] });
let serverLog = "";
server.stdout.on("data", (chunk) => (serverLog += chunk));
server.stderr.on("data", (chunk) => (serverLog += chunk));

const baseUrl = `http://localhost:${port}`;
const deadline = Date.now() + 60_000;
for (;;) {
  try {
    if ((await fetch(`${baseUrl}/healthz`)).ok) break;
  } catch {
    // not listening yet
  }
  if (Date.now() > deadline || server.exitCode !== null) {
    console.error(`The store did not start:\n${serverLog}`);
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 250));
}

// `node tests/e2e/run.mjs landing checkout` runs only the files whose names start with those words.
const only = process.argv.slice(2);
const files = fs
  .readdirSync(path.join(root, "tests/e2e"))
  .filter((f) => f.endsWith(".e2e.mjs") && (only.length === 0 || only.some((o) => f.startsWith(o))))
  .map((f) => path.join("tests/e2e", f));
const runner = spawn(process.execPath, ["--test", "--test-concurrency=1", ...files], {
  cwd: root,
  env: { ...process.env, E2E_BASE_URL: baseUrl, E2E_ADMIN_USERNAME: env.ADMIN_USERNAME, E2E_ADMIN_PASSWORD: env.ADMIN_PASSWORD },
  stdio: "inherit",
});
const code = await new Promise((resolve) => runner.on("exit", resolve));
server.kill("SIGTERM");
if (code !== 0) console.error(`\nStore log:\n${serverLog}`);
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(code ?? 1);

// End-to-end: starts the built store on a free port with a fresh DATA_DIR, then runs every
// tests/e2e/*.e2e.mjs file with node's test runner against it, and stops the store.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { root, startStore } from "./support/store-process.mjs";

const admin = { ADMIN_USERNAME: "e2e-admin", ADMIN_PASSWORD: "e2e-admin-password", ADMIN_EMAIL: "e2e-admin@example.com" };
let store;
try {
  store = await startStore({
    env: {
      ...admin,
      BRAND_NAME: "Legacy",
      // Every browser comes from 127.0.0.1 here; the per-address limits have their own integration tests.
      LOGIN_ATTEMPTS_PER_IP: "1000",
      SUBSCRIBES_PER_IP: "1000",
      CHECKOUTS_PER_IP: "1000",
    },
  });
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// `node tests/e2e/run.mjs landing checkout` runs only the files whose names start with those words.
const only = process.argv.slice(2);
const files = fs
  .readdirSync(path.join(root, "tests/e2e"))
  .filter((f) => f.endsWith(".e2e.mjs") && (only.length === 0 || only.some((o) => f.startsWith(o))))
  .map((f) => path.join("tests/e2e", f));
const runner = spawn(process.execPath, ["--test", "--test-concurrency=1", ...files], {
  cwd: root,
  env: { ...process.env, E2E_BASE_URL: store.baseUrl, E2E_ADMIN_USERNAME: admin.ADMIN_USERNAME, E2E_ADMIN_PASSWORD: admin.ADMIN_PASSWORD },
  stdio: "inherit",
});
const code = await new Promise((resolve) => runner.on("exit", resolve));
if (code !== 0) console.error(`\nStore log:\n${store.log()}`);
await store.stop();
process.exit(code ?? 1);

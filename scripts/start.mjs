// `npm start`: builds once when there is no build yet (or it is older than the sources), then serves:
// one worker per core (WEB_CONCURRENCY overrides; 1 runs server.js in this process, no cluster).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

try {
  process.loadEnvFile();
} catch {
  // No .env: the defaults documented in .env.example apply.
}
process.env.NODE_ENV ||= "production";

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, fs.statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  }
  return newest;
}

const built = "build/server/index.js";
const stale = !fs.existsSync(built) || ["app", "server", "db"].some((dir) => newestMtime(dir) > fs.statSync(built).mtimeMs);
if (stale) {
  console.log("Building the store (first start or changed sources)...");
  const result = spawnSync("npx", ["remix", "vite:build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  const precompressed = spawnSync(process.execPath, ["scripts/precompress-assets.mjs"], { stdio: "inherit" });
  if (precompressed.status !== 0) process.exit(precompressed.status ?? 1);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { alertFromPrimary, log, prepareStore, startupBanner, superviseWorkers, workerCount } = (await import(path.join(root, built))).entry
  .module;

// A configuration the store must not run with (server/config.ts ConfigError) is one paragraph
// for the deployer, not a stack trace.
function refuse(error) {
  if (error?.name !== "ConfigError") throw error;
  console.error(`The store cannot start: ${error.message}`);
  process.exit(1);
}

let workers;
try {
  workers = workerCount();
} catch (error) {
  refuse(error);
}
if (workers === 1) {
  await import("../server.js");
} else {
  // Migrations, the seed and the first admin run here, once, before any worker opens the database.
  const { config, report } = await prepareStore().catch(refuse);
  superviseWorkers({
    count: workers,
    exec: path.join(root, "server.js"),
    config,
    onListening: () => {
      for (const line of startupBanner(config, report, workers)) log.info(line);
    },
    onRestartLoop: (detail) => void alertFromPrimary(config, "worker-restarts", detail),
  });
}

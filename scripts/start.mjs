// `npm start`: builds once when there is no build yet (or it is older than the sources), then serves.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

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
const stale =
  !fs.existsSync(built) ||
  ["app", "server", "db"].some((dir) => newestMtime(dir) > fs.statSync(built).mtimeMs);
if (stale) {
  console.log("Building the store (first start or changed sources)...");
  const result = spawnSync("npx", ["remix", "vite:build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  const precompressed = spawnSync(process.execPath, ["scripts/precompress-assets.mjs"], { stdio: "inherit" });
  if (precompressed.status !== 0) process.exit(precompressed.status ?? 1);
}
await import("../server.js");

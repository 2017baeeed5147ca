// `npm run bench`: throughput of the built store's busiest pages, as ratios against bare
// node:http serving the same bytes in the same run (absolute numbers on shared machines are noise).
// Loopback only, bounded request counts; needs a build (`npm run build`).
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const REQUESTS = Number(process.env.BENCH_REQUESTS) || 400;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY) || 16;

const freePort = () =>
  new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function waitFor(url, server) {
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    if (server.exitCode !== null) throw new Error("The store exited before it was ready.");
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("The store did not start.");
}

/** Requests per second for GET url, REQUESTS requests, CONCURRENCY at a time. */
async function measure(url, headers = {}) {
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      next++;
      const response = await fetch(url, { headers });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker)); // warm up
  next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return REQUESTS / seconds;
}

if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  console.error("No build: run `npm run build` first.");
  process.exit(1);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "store-bench-"));
const port = await freePort();
const store = spawn(process.execPath, [path.join(root, "server.js")], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir },
  stdio: "ignore",
});
const base = `http://127.0.0.1:${port}`;
try {
  await waitFor(`${base}/healthz`, store);
  const results = [];
  // A returning visitor's cookie skips the anonymous page cache: the render itself.
  const cases = [
    { label: "/store", route: "/store" },
    { label: "/store (with a cookie)", route: "/store", headers: { Cookie: "bench=1" } },
    { label: "/api/products", route: "/api/products" },
    { label: "/", route: "/" },
  ];
  for (const { label, route, headers } of cases) {
    const bytes = Buffer.from(await (await fetch(base + route, { headers })).arrayBuffer());
    const type = route.startsWith("/api") ? "application/json" : "text/html; charset=utf-8";
    const baseline = http.createServer((_, res) => res.writeHead(200, { "Content-Type": type }).end(bytes));
    await new Promise((r) => baseline.listen(0, "127.0.0.1", r));
    const bare = await measure(`http://127.0.0.1:${baseline.address().port}/`);
    const ours = await measure(base + route, headers);
    baseline.close();
    results.push({ route: label, "store req/s": Math.round(ours), "bare node:http req/s": Math.round(bare), ratio: (ours / bare).toFixed(3) });
  }
  console.table(results);
  console.log(`ratio = store throughput / bare node:http serving the same bytes (${REQUESTS} requests, ${CONCURRENCY} at a time).`);
} finally {
  store.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}

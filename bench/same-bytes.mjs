// (a) The same-bytes ratio: each route's throughput against a bare node:http server that sends the
// very bytes the store sent (same status, type and encoding), measured in alternating rounds
// (store, bare, store, bare…) so a neighbour's burst on a shared machine hits both sides alike; the
// figure is the median of the rounds' ratios.
//
// Fair sides: the bare server runs in processes of its own, as many as the store runs (not inside
// the bench, where it would share the load generator's event loop and lose). And since one
// load-generating process may be what limits both sides, each round also reads the CPU time the
// server's processes spent (Linux /proc): CPU per answer says what an answer costs the server,
// whatever the load generator could keep up with.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cpuNanos, parentOf, processTree } from "./cpu-time.mjs";
import { createClient, jsonOf } from "./http-client.mjs";
import { median } from "./stats.mjs";

async function throughput(client, path, headers, requests, concurrency, pids) {
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      next++;
      const response = await client.request("GET", path, { headers });
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    }
  };
  const cpuBefore = cpuNanos(pids);
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, worker));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuAfter = cpuNanos(pids);
  const cpuMicros = cpuBefore === null || cpuAfter === null ? NaN : (cpuAfter - cpuBefore) / 1e3 / requests;
  return { rate: requests / seconds, cpuMicros };
}

/** The bare server in `processes` processes of its own; resolves with its base URL, pids and stop(). */
async function bareServer(captured, processes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-bare-"));
  const bodyFile = path.join(dir, "body");
  fs.writeFileSync(bodyFile, captured.body);
  const headers = { "Content-Type": captured.headers["content-type"], "Content-Length": captured.body.length };
  if (captured.headers["content-encoding"]) headers["Content-Encoding"] = captured.headers["content-encoding"];
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "bare-server.mjs"), bodyFile, JSON.stringify(headers), String(processes)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const stop = () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stop);
  const { port } = await new Promise((resolve, reject) => {
    child.stdout.once("data", (line) => resolve(JSON.parse(String(line))));
    child.once("exit", (code) => reject(new Error(`The bare server exited (${code}).`)));
  });
  return { base: `http://127.0.0.1:${port}`, pids: processTree(child.pid), stop };
}

/** The store's serving processes: the one that answers, or its cluster primary and all workers. */
async function storeProcesses(client) {
  const { pid } = jsonOf(await client.request("GET", "/healthz"));
  const parent = parentOf(pid);
  if (parent === null) return null;
  return parent === process.pid ? [pid] : processTree(parent);
}

/**
 * cases: [{ label, path, headers }]; returns one row per case. `workers`: the store's processes,
 * matched by the bare side (1 for `node server.js`).
 */
export async function sameBytesRatio(base, cases, { rounds, requests, concurrency, deadline, workers = 1 }) {
  const store = createClient(base, { sockets: concurrency });
  const storePids = await storeProcesses(store);
  const rows = [];
  try {
    for (const { label, path, headers = {} } of cases) {
      // The store warmed up first, then its answer captured: a page's first answers after a render
      // may go out as gzip while its brotli copy is made (decision 0032); the steady bytes are compared.
      // 10,000 answers: with 3,000 the first route measured (/) still paid for the store's JIT
      // warming up (its CPU per answer twice a warm one's, 2026-11-27), which a running store has
      // long done. Both sides get the same count.
      const warmUp = Math.max(10_000, requests);
      await throughput(store, path, headers, warmUp, concurrency, null);
      const captured = await store.request("GET", path, { headers });
      if (captured.status !== 200) throw new Error(`GET ${path} answered ${captured.status}`);
      const server = await bareServer(captured, workers);
      const bare = createClient(server.base, { sockets: concurrency });
      try {
        // The bare server is a new process for each route: a few thousand answers get its hot
        // path compiled, as the store's already is, before anything is measured.
        await throughput(bare, "/", headers, warmUp, concurrency, null);
        const ours = [];
        const theirs = [];
        for (let round = 0; round < rounds && Date.now() < deadline; round++) {
          ours.push(await throughput(store, path, headers, requests, concurrency, storePids));
          theirs.push(await throughput(bare, "/", headers, requests, concurrency, server.pids));
        }
        const storeCpu = median(ours.map((r) => r.cpuMicros));
        const bareCpu = median(theirs.map((r) => r.cpuMicros));
        rows.push({
          route: label,
          bytes: captured.body.length,
          encoding: captured.headers["content-encoding"] ?? "identity",
          rounds: ours.length,
          storePerSecond: median(ours.map((r) => r.rate)),
          barePerSecond: median(theirs.map((r) => r.rate)),
          ratio: median(ours.map((r, i) => r.rate / theirs[i].rate)),
          processes: { store: storePids?.length ?? workers, bare: server.pids?.length ?? workers, loadGenerator: 1 },
          storeCpuMicros: storeCpu,
          bareCpuMicros: bareCpu,
          cpuRatio: bareCpu / storeCpu,
        });
      } finally {
        bare.close();
        server.stop();
      }
    }
  } finally {
    store.close();
  }
  return rows;
}

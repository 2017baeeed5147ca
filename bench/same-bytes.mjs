// (a) The same-bytes ratio: each route's throughput against a bare node:http server that sends the
// very bytes the store sent (same status, type and encoding), measured in alternating rounds
// (store, bare, store, bare…) so a neighbour's burst on a shared machine hits both sides alike; the
// figure is the median of the rounds' ratios.
import http from "node:http";
import { createClient } from "./http-client.mjs";
import { median } from "./stats.mjs";

async function throughput(client, path, headers, requests, concurrency) {
  let next = 0;
  const worker = async () => {
    while (next < requests) {
      next++;
      const response = await client.request("GET", path, { headers });
      if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
    }
  };
  const start = process.hrtime.bigint();
  await Promise.all(Array.from({ length: Math.min(concurrency, requests) }, worker));
  return requests / (Number(process.hrtime.bigint() - start) / 1e9);
}

function bareServer(captured) {
  const headers = { "Content-Type": captured.headers["content-type"], "Content-Length": captured.body.length };
  if (captured.headers["content-encoding"]) headers["Content-Encoding"] = captured.headers["content-encoding"];
  const server = http.createServer((_req, res) => res.writeHead(200, headers).end(captured.body));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** cases: [{ label, path, headers }]; returns one row per case. */
export async function sameBytesRatio(base, cases, { rounds, requests, concurrency, deadline }) {
  const store = createClient(base, { sockets: concurrency });
  const rows = [];
  try {
    for (const { label, path, headers = {} } of cases) {
      const captured = await store.request("GET", path, { headers });
      if (captured.status !== 200) throw new Error(`GET ${path} answered ${captured.status}`);
      const server = await bareServer(captured);
      const bare = createClient(`http://127.0.0.1:${server.address().port}`, { sockets: concurrency });
      try {
        const warmUp = Math.max(20, requests >> 3);
        await throughput(store, path, headers, warmUp, concurrency);
        await throughput(bare, "/", headers, warmUp, concurrency);
        const ours = [];
        const theirs = [];
        for (let round = 0; round < rounds && Date.now() < deadline; round++) {
          ours.push(await throughput(store, path, headers, requests, concurrency));
          theirs.push(await throughput(bare, "/", headers, requests, concurrency));
        }
        rows.push({
          route: label,
          bytes: captured.body.length,
          encoding: captured.headers["content-encoding"] ?? "identity",
          rounds: ours.length,
          storePerSecond: median(ours),
          barePerSecond: median(theirs),
          ratio: median(ours.map((rate, i) => rate / theirs[i])),
        });
      } finally {
        bare.close();
        server.close();
      }
    }
  } finally {
    store.close();
  }
  return rows;
}

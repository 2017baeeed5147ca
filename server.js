// The production server: one process, or one of the workers `npm start` forks (scripts/start.mjs,
// decision 0015), on one SQLite file. Express serves the built assets, answers /api from the API
// table and hands every other request to Remix, with the caller's address for rate limits.
import cluster from "node:cluster";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const root = path.dirname(fileURLToPath(import.meta.url));
const build = await import(path.join(root, "build/server/index.js"));
const {
  apiMiddleware,
  batchLogLines,
  beginShutdown,
  booted,
  expressErrors,
  flushEvents,
  flushSoldOutMisses,
  flushLog,
  installMetrics,
  log,
  logError,
  pageMethods,
  rawRequestListener,
  refuseCrossSiteWrites,
  resignSweeper,
  serverDoors,
  startFulfilmentJob,
  startupBanner,
  staticAssets,
  StoreResponse,
  storeFastPath,
  sweep,
  trustProxyHops,
  SWEEP_EVERY_MS,
  PUBLIC_FILE_MAX_AGE,
  waitingRoomGate,
} = build.entry.module;

// A configuration the store must not run with (server/config.ts ConfigError) is one paragraph
// for the deployer, not a stack trace.
const { ctx, report } = await booted().catch((error) => {
  if (error?.name !== "ConfigError") throw error;
  console.error(`The store cannot start: ${error.message}`);
  process.exit(1);
});
const { config } = ctx;
// Prometheus metrics (decision 0048): counted from here on; served on /metrics with METRICS_TOKEN,
// and on METRICS_PORT by this process alone or by the primary of `npm start`'s workers.
installMetrics(ctx);

const app = express();
app.disable("x-powered-by");
trustProxyHops(app, config.trustProxy);

// Fingerprinted build assets never change: served from memory with the .br/.gz the build made,
// ahead of compression(), which would only compress them again. Everything else in public/ gets a
// short cache.
app.use("/assets", staticAssets(path.join(root, "build/client/assets")));
app.use(compression());
// The caller's address (from X-Forwarded-For only under TRUST_PROXY), for the API and Remix alike.
const loadContext = (req) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" });
// /healthz and uploaded media: doors that are not pages, outside Remix (decision 0033).
app.use(serverDoors(loadContext));
// Files in public/ all have an extension; pages (/checkout, /cart) never do, so they skip the
// disk lookup express.static would make for each of them.
const publicFiles = express.static(path.join(root, "build/client"), { maxAge: PUBLIC_FILE_MAX_AGE });
app.use((req, res, next) => (/\.[^/]*$/.test(req.path) ? publicFiles(req, res, next) : next()));

app.use(refuseCrossSiteWrites(config));

// The API is a table, not pages: one lookup answers /api/*, REST and tRPC, without Remix's route
// matching (server/api/). After the Origin check, which guards its writes too. In production the
// writes never get here: the fast path answers them with the same check (decision 0056).
app.use("/api", apiMiddleware(loadContext));

// Pages take GET, HEAD and their forms' POST; Remix would run a page's action for a PUT or a
// DELETE too (decision 0073).
const methods = pageMethods(build);
app.use((req, res, next) => methods(req, res, next, config.brand.name));

app.all(
  "*",
  createRequestHandler({
    build,
    mode: "production",
    getLoadContext: loadContext,
  }),
);
// What Express itself refuses (a path it cannot decode) is the store's 4xx page, unlogged; what
// fails is logged and a 500 (server/http/failure-answer.ts).
app.use(expressErrors(config.brand.name));

// Drop day: the public pages come from one cache for everyone, the visitor's own parts filled in
// per answer (decision 0014), and the product list from a cache of its bytes. Both answer on
// node:http's own request, before Express and Remix do any work (decision 0017); they compress
// their own copies once and only answer GET and HEAD, so the cross-site write check has nothing
// to guard there. Everything else, and anything they cannot answer, goes to Express.
// In a drop's waiting-room window, /store, /cart and /checkout need a pass (decision 0019): the
// gate runs first, so a cached page is never a way round the line. It answers at once when this
// process read the room within the last second (nearly always). The listener's first line takes
// off internal header names, and a throw anywhere in it (or a failed gate) answers that request
// 500 instead of ending the worker or letting the request past the gate (server/http/raw-listener.ts).
const listener = rawRequestListener({
  gate: waitingRoomGate(),
  fastPath: storeFastPath(build, ctx),
  fallback: app,
  brandName: config.brand.name,
  trustProxy: config.trustProxy,
  cachedSample: config.log.cachedSample,
});
const LISTEN_BACKLOG = 4096;
let stopping = false;
// StoreResponse writes the request id into a flat header list's head (server/http/store-response.ts).
const server = http.createServer({ ServerResponse: StoreResponse }, (req, res) => {
  // Once stopping, every answer closes its connection: the client's next request opens another,
  // which the balancer (told by /readyz) sends to a process that is not stopping.
  if (stopping) res.shouldKeepAlive = false;
  listener(req, res);
});

// A drop's crowd connects at once: node's default queue of 511 connections waiting to be accepted
// overflowed with 1,000 shoppers while the workers were busy, and each connection the kernel
// dropped was retried by the browser 1 s, then 3 s later (a GET /store p99 of 6-7 s in the rush
// bench). The kernel caps the queue at net.core.somaxconn (4096 on current Linux).
server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
  // A worker's primary prepared the database and says so once for all workers.
  if (!cluster.isWorker) for (const line of startupBanner(config, report)) log.info(line);
  // Request lines from here on go to stdout in batches (server/observability/log.ts).
  batchLogLines();
});
// Node closes an idle keep-alive connection after 5 s; a client (or a proxy in front, whose idle
// timeout is commonly 60 s) that sends on it at that moment gets ECONNRESET. Idle connections stay
// open longer than theirs, so the store is never the side that closes them under a request.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// Expired holds back on the shelf, stranded payments confirmed (server/services/jobs/sweeper.ts).
// Every worker tries; the one holding the sweeper lease does the work.
const sweeper = setInterval(() => void sweep(ctx), SWEEP_EVERY_MS);
sweeper.unref();
// Paid orders' e-mails and labels, after the payment's answer (decision 0027); the worker holding
// the fulfilment lease works.
const fulfilment = startFulfilmentJob(ctx);

// A promise nobody awaited that fails is logged, not the end of this worker and every request in it.
process.on("unhandledRejection", (error) => logError("Unhandled rejection", error));

// A graceful stop (decision 0048). /readyz answers 503 at once and for SHUTDOWN_DRAIN_SECONDS the
// store still serves, so a balancer stops sending shoppers here; then the port closes, requests
// under way (a payment confirmation, say) get SHUTDOWN_TIMEOUT_SECONDS to finish, the queued
// events and sold-out misses are written and the chores handed over. Past the bound, the last
// connections are cut.
function stop() {
  clearInterval(sweeper);
  const fulfilmentStopped = fulfilment.stop();
  const idle = setInterval(() => server.closeIdleConnections(), 100);
  server.close(async () => {
    clearInterval(idle);
    await flushEvents(ctx).catch((error) => logError("Writing the last events failed", error));
    await flushSoldOutMisses(ctx);
    // The next worker to sweep takes the chores over now rather than when the lease runs out.
    await resignSweeper(ctx).catch(() => {});
    await fulfilmentStopped;
    await ctx.db.destroy();
    flushLog();
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => {
    log.warn(`Requests still under way after ${config.shutdown.timeoutMs / 1000} s: closing their connections.`);
    server.closeAllConnections();
    setTimeout(() => {
      flushLog();
      process.exit(1);
    }, 2_000).unref();
  }, config.shutdown.timeoutMs).unref();
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    beginShutdown();
    setTimeout(stop, config.shutdown.drainMs);
  });
}

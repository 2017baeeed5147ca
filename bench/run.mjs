// `npm run bench` (after `npm run build`): the built store under load, on loopback only.
//  (a) the same-bytes ratio of /, /store and /store/:id (with a bag cookie) and /api/products
//      against bare node:http sending the identical bytes;
//  (b) the rush: shoppers racing for a product's units through the whole checkout, then the
//      database checked for units sold beyond stock.
// Appends the figures, dated and with the machine, to docs/perf.md. `npm run bench -- --help`.
import fs from "node:fs";
import { cpuNanos, listenOverflows, processTree } from "./cpu-time.mjs";
import { cookiesOf, createClient } from "./http-client.mjs";
import { readOptions } from "./options.mjs";
import { appendSection, formatSection, machine, PERF_LOG } from "./perf-log.mjs";
import { fulfilmentSettled, rush, soldInDatabase } from "./rush.mjs";
import { sameBytesRatio } from "./same-bytes.mjs";
import { assertBuilt, createDropProduct, startStores } from "./store-server.mjs";

// Issue 12's waiting-room rush is a bench of its own (bench/waiting-room.mjs): `--only waiting-room`.
const waitingRoom = /--only[= ]waiting-room\b/.test(process.argv.slice(2).join(" ")) || process.env.BENCH_ONLY === "waiting-room";
if (waitingRoom) process.exit(await (await import("./waiting-room.mjs")).main());
// Issue 15's phone measurement (Lighthouse in Chromium): `--only lighthouse`.
const lighthouseOnly = /--only[= ]lighthouse\b/.test(process.argv.slice(2).join(" ")) || process.env.BENCH_ONLY === "lighthouse";
if (lighthouseOnly) process.exit(await (await import("./lighthouse.mjs")).main());
// Issue 14's reports (summary over 100,000 orders and 1,000,000 events): `--only reports`.
const reports = /--only[= ]reports\b/.test(process.argv.slice(2).join(" ")) || process.env.BENCH_ONLY === "reports";
if (reports) process.exit(await (await import("./reports.mjs")).main());

let options;
try {
  options = readOptions();
  // `--baseline <ref>`: this run becomes the conductor of A/B rounds, each a run of this file.
  if (options.baseline) process.exit(await (await import("./baseline.mjs")).main(options));
  assertBuilt();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const startedAt = new Date();
// The bench stops by itself: past the time bound plus the store's start (up to a minute) and the
// last shoppers' requests (30 s at most each), give up outright (the store is killed on exit).
const hardStop = setTimeout(
  () => {
    console.error(`The bench ran past its time bound (${options.seconds} s): stopping.`);
    process.exit(2);
  },
  (options.seconds + 120) * 1000,
);
hardStop.unref();

const before = machine();
const workerShape =
  options.workers === 1 ? "1 worker (one process, server.js)" : `${options.workers} workers (scripts/start.mjs, node:cluster)`;
const engine =
  options.database === "sqlite"
    ? "SQLite (one file)"
    : options.database === "postgres"
      ? "PostgreSQL (throwaway server, fsync off)"
      : "PostgreSQL (given URL)";
const storeShape =
  options.instances === 1
    ? `${workerShape}, ${engine}`
    : `${options.instances} instances of ${workerShape} each, own ports, on one ${engine}; ` +
      (options.balance === "request" ? "each request to the next instance (non-sticky)" : "each shopper stays on one instance (sticky)");
if (options.instances > 1 && !options.rush) {
  console.error("--instances above 1 measures the rush only (the same-bytes ratio compares one store with bare node:http).");
  process.exit(1);
}
console.log(`${before.cores} cores, load ${before.load.toFixed(2)}; starting the built store: ${storeShape}…`);
// The log says how the store ran, whatever the note says.
options.note = `Store: ${storeShape}.${options.note ? ` ${options.note}` : ""}`;
let store;
try {
  store = await startStores({ instances: options.instances, workers: options.workers, database: options.database });
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
// No new round or shopper starts after this; the store's start does not count against it.
const deadline = Date.now() + options.seconds * 1000;
let exitCode = 0;
try {
  const base = store.bases[0];
  const client = createClient(base, { sockets: 4 });
  const productId = await createDropProduct(client, store.admin, options.units);
  const results = { startedAt, machine: before, options };

  if (options.ratio) {
    const bag = await client.request("POST", "/api/cart", { headers: { Origin: base }, body: { productId, quantity: 1 } });
    if (bag.status !== 201) throw new Error(`Filling the bag answered ${bag.status}`);
    const withBag = { Cookie: cookiesOf(bag) };
    console.log("(a) same-bytes ratio…");
    results.ratio = await sameBytesRatio(
      base,
      [
        { label: "/ (bag cookie)", path: "/", headers: withBag },
        { label: "/store (bag cookie)", path: "/store", headers: withBag },
        { label: "/store/:id (bag cookie)", path: `/store/${productId}`, headers: withBag },
        { label: "/api/products", path: "/api/products" },
      ],
      { ...options, concurrency: options.ratioConcurrency, deadline },
    );
    console.table(
      results.ratio.map((r) => ({
        ...r,
        storePerSecond: Math.round(r.storePerSecond),
        barePerSecond: Math.round(r.barePerSecond),
        ratio: r.ratio.toFixed(3),
        processes: undefined,
        storeCpuMicros: r.storeCpuMicros.toFixed(1),
        bareCpuMicros: r.bareCpuMicros.toFixed(1),
        cpuRatio: r.cpuRatio.toFixed(3),
      })),
    );
  }
  client.close();

  if (options.rush) {
    console.log(`(b) rush: ${options.shoppers} shoppers for ${options.units} units, ${options.rushConcurrency} at a time…`);
    // CPU of every store process (primaries and workers, all threads) over the rush, then until every
    // paid order has its e-mail and label: work moved off the answer still counts.
    const pids = store.stores.flatMap((s) => processTree(s.pid));
    const cpuStart = cpuNanos(pids);
    const overflowsStart = listenOverflows();
    const generatorStart = process.cpuUsage();
    results.rush = await rush(store.bases, {
      productId,
      shoppers: options.shoppers,
      concurrency: options.rushConcurrency,
      deadline,
      balance: options.balance,
      profile: options.profile,
    });
    const cpuRush = cpuNanos(pids);
    const overflowsEnd = listenOverflows();
    if (overflowsStart !== null && overflowsEnd !== null) results.rush.listenOverflows = overflowsEnd - overflowsStart;
    const generator = process.cpuUsage(generatorStart);
    const settledSeconds = await fulfilmentSettled(store.database);
    const cpuSettled = cpuNanos(pids);
    if (cpuStart !== null && cpuRush !== null && cpuSettled !== null) {
      results.rush.cpu = {
        rushMs: (cpuRush - cpuStart) / 1e6,
        settledMs: (cpuSettled - cpuStart) / 1e6,
        settledSeconds,
        generatorMs: (generator.user + generator.system) / 1e3,
        processes: pids.length,
      };
    }
  }
  // The store closes its database on SIGTERM; the figures are read from the file after that.
  await store.stop();
  if (results.rush) {
    results.rush.sold = await soldInDatabase(store.database, productId, options.units);
    if (results.rush.sold.oversold > 0) exitCode = 3;
  }
  results.loadAfter = machine().load;

  if (options.json) fs.writeFileSync(options.json, JSON.stringify(results));
  const section = formatSection(results);
  console.log(`\n${section}`);
  if (options.log) {
    appendSection(section);
    console.log(`Appended to ${PERF_LOG}.`);
  }
  if (exitCode === 3) console.error("OVERSOLD: more units were paid for than there were.");
  // An error answer often has its reason in the store's own log (a worker that died, say).
  if (results.rush?.outcome.errors && store.stderr()) console.error(`The store's stderr (last 4000 characters):\n${store.stderr()}`);
} catch (error) {
  console.error(error.message);
  if (store.stderr()) console.error(store.stderr());
  exitCode = 1;
} finally {
  await store.stop();
  store.cleanUp();
}
process.exit(exitCode);

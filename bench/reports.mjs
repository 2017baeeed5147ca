// The reports bench (issue 14, `npm run bench -- --only reports`): the built store with 100,000
// orders and 1,000,000 events, rolled up and compacted by its own sweeper as it would be in a
// shop, then the 30-day summary (GET /api/admin/reports/summary) timed one request at a time, as
// an admin's dashboard or an external caller asks for it. Target: at most 100 ms (p95).
import os from "node:os";
import Database from "better-sqlite3";
import { formatInTimeZone } from "date-fns-tz";
import { fixed, readKnobs, sleep } from "./knobs.mjs";
import { cookiesOf, createClient, jsonOf, textOf } from "./http-client.mjs";
import { appendSection, machine, PERF_LOG } from "./perf-log.mjs";
import { seedReports } from "./reports-seed.mjs";
import { percentile } from "./stats.mjs";
import { assertBuilt, startStore } from "./store-server.mjs";

const KNOBS = {
  orders: { env: "BENCH_ORDERS", default: 100_000, help: "orders seeded over the last 30 days" },
  events: { env: "BENCH_EVENTS", default: 1_000_000, help: "raw events seeded over the last 45 days" },
  requests: { env: "BENCH_REQUESTS", default: 30, help: "timed summary requests (after 3 to warm up)" },
  workers: { env: "BENCH_WORKERS", default: os.availableParallelism(), help: "store workers (scripts/start.mjs); 1 = one process" },
  seconds: { env: "BENCH_SECONDS", default: 600, help: "the whole run stops after this long" },
};
const TARGET_MS = 100;

const readOptions = (argv) => readKnobs(argv, KNOBS, "npm run bench -- --only reports [--note text] [--no-log]");

/**
 * Waits until the store's sweeper has rolled up every seeded event and compacted the old ones; the
 * roll-up's own time is from the moment its run began (its row) to the moment it was seen done.
 */
async function rolledUp(file, deadline) {
  const db = new Database(file, { readonly: true });
  try {
    const maxId = db.prepare("SELECT max(id) AS id FROM events").get().id;
    for (;;) {
      const row = db.prepare("SELECT rolled_to_id AS id, rolled_at AS at FROM event_rollup WHERE id = 1").get();
      // Rolled up, and the raw events older than 30 days (and a day) compacted by the same run.
      const old = db
        .prepare("SELECT count(*) AS n FROM events WHERE occurred_at < ?")
        .get(new Date(Date.now() - 31 * 86_400_000).toISOString()).n;
      // …and the orders rolled up per hour (the same sweep, right after).
      const orders = db.prepare("SELECT count(*) AS n FROM event_rollup WHERE id = 2").get().n;
      if (row && row.id >= maxId && old === 0 && orders === 1) {
        const left = db.prepare("SELECT count(*) AS n FROM events").get().n;
        const hours = db.prepare("SELECT count(*) AS n FROM event_hours").get().n;
        return { seconds: (Date.now() - Date.parse(row.at)) / 1000, left, hours };
      }
      if (Date.now() > deadline) throw new Error("The store's sweeper did not roll the events up in time.");
      await sleep(200);
    }
  } finally {
    db.close();
  }
}

async function timed(client, path, headers, count) {
  const samples = [];
  let last;
  for (let i = 0; i < count + 3; i++) {
    const started = performance.now();
    last = await client.request("GET", path, { headers });
    const ms = performance.now() - started;
    if (last.status !== 200) throw new Error(`GET ${path} answered ${last.status}: ${textOf(last)}`);
    if (i >= 3) samples.push(ms);
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), max: Math.max(...samples), body: jsonOf(last) };
}

export async function main() {
  let options;
  try {
    options = readOptions(process.argv.slice(2).filter((arg) => !/^--only(=|$)|^reports$/.test(arg)));
    assertBuilt();
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  const startedAt = new Date();
  const before = machine();
  const deadline = Date.now() + options.seconds * 1000;
  console.log(`${before.cores} cores, load ${before.load.toFixed(2)}; starting the built store (${options.workers} workers)…`);
  const store = await startStore({ workers: options.workers });
  try {
    console.log(`Seeding ${options.orders} orders and ${options.events} events…`);
    const seeded = seedReports(store.databaseFile, { orders: options.orders, events: options.events, orderDays: 30, eventDays: 45 });
    console.log(`Seeded in ${fixed(seeded.seconds, 1)} s; waiting for the store's sweeper to roll them up (it sweeps every 30 s)…`);
    const rollup = await rolledUp(store.databaseFile, deadline);

    const client = createClient(store.base, { sockets: 1 });
    const login = await client.request("POST", "/api/login", { body: { username: store.admin.username, password: store.admin.password } });
    if (login.status !== 200) throw new Error(`Admin sign-in answered ${login.status}: ${textOf(login)}`);
    const headers = { Cookie: cookiesOf(login) };
    const day = (offset) => formatInTimeZone(new Date(Date.now() + offset * 86_400_000), "America/New_York", "yyyy-MM-dd");
    const range = `from=${day(-29)}&to=${day(0)}`;
    console.log(`Timing GET /api/admin/reports/summary?${range} (${options.requests} requests, one at a time)…`);
    const summary = await timed(client, `/api/admin/reports/summary?${range}`, headers, options.requests);
    const subscribers = await timed(client, `/api/admin/reports/subscribers?${range}`, headers, options.requests);
    const dashboardInput = encodeURIComponent(JSON.stringify({ range: "30d" }));
    const dashboard = await timed(client, `/api/trpc/admin.reports.dashboard?input=${dashboardInput}`, headers, options.requests);
    client.close();
    await store.stop();

    const met = summary.p95 <= TARGET_MS;
    const { orders, revenue, funnel } = summary.body;
    const lines = [
      `## ${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC · ${before.cores} cores (${before.cpu}) · Node ${before.node}`,
      "",
      `Load average (1 min): ${fixed(before.load, 2)} before, ${fixed(machine().load, 2)} after. Store: ${options.workers} worker(s).` +
        `${options.note ? ` ${options.note}` : ""}`,
      "",
      `**Reports** (issue 14): ${options.orders} orders over 30 days and ${options.events} events over 45 days, seeded in ` +
        `${fixed(seeded.seconds, 1)} s (one transaction, prepared inserts); the store's sweeper rolled them up in ` +
        `${fixed(rollup.seconds, 1)} s (${rollup.hours} hour rows) and compacted ${options.events - rollup.left} events older than 30 days. ` +
        `The 30-day summary (${orders} paid orders, $${revenue}, ${funnel.visitors} visitors): ` +
        `**p95 ${fixed(summary.p95, 1)} ms** (target ≤ ${TARGET_MS} ms: ${met ? "met" : "NOT met"}).`,
      "",
      "| request (30 days, one at a time, after 3 to warm up) | requests | p50 ms | p95 ms | max ms |",
      "|---|---|---|---|---|",
      ...[
        ["GET /api/admin/reports/summary", summary],
        ["GET /api/admin/reports/subscribers", subscribers],
        ["tRPC admin.reports.dashboard (the /admin page's data: this and the previous period, top products, subscribers)", dashboard],
      ].map(([label, t]) => `| ${label} | ${options.requests} | ${fixed(t.p50, 1)} | ${fixed(t.p95, 1)} | ${fixed(t.max, 1)} |`),
      "",
    ];
    const section = lines.join("\n");
    console.log(`\n${section}`);
    if (options.log) {
      appendSection(section);
      console.log(`Appended to ${PERF_LOG}.`);
    }
    return met ? 0 : 4;
  } catch (error) {
    console.error(error.message);
    if (store.stderr()) console.error(store.stderr());
    return 1;
  } finally {
    await store.stop();
    store.cleanUp();
  }
}

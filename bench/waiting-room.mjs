// The waiting-room rush (issue 12, `npm run bench -- --only waiting-room`): a drop's crowd joins
// the line before T-0, the store admits it at the admin's rate, and each admitted shopper buys
// through the API with the pass. Reports how long the line took (wait p50/p99 from T-0 to the
// poll that said "admitted") and how the pages felt to the admitted (p99 of /store, /store/:id,
// /checkout), which the waiting room exists to keep low: at most 0.5 s.
import os from "node:os";
import { cpuNanos, processTree } from "./cpu-time.mjs";
import { fixed, readKnobs, sleep } from "./knobs.mjs";
import { cookiesOf, createClient, jsonOf, textOf } from "./http-client.mjs";
import { appendSection, machine, PERF_LOG } from "./perf-log.mjs";
import { cookieJar, soldInDatabase } from "./rush.mjs";
import { percentile } from "./stats.mjs";
import { assertBuilt, createDropProduct, startStore } from "./store-server.mjs";

const KNOBS = {
  visitors: { env: "BENCH_VISITORS", default: 2000, help: "visitors who join the line before T-0" },
  units: { env: "BENCH_UNITS", default: 200, help: "units of the product on sale" },
  "admit-per-minute": { env: "BENCH_ADMIT_PER_MINUTE", default: 6000, help: "the waiting room's admission rate" },
  "poll-seconds": { env: "BENCH_POLL_SECONDS", default: 5, help: "how often a waiting visitor asks (the page's own interval)" },
  sockets: { env: "BENCH_SOCKETS", default: 128, help: "connections the crowd shares" },
  seconds: { env: "BENCH_SECONDS", default: 300, help: "the whole run stops after this long" },
  workers: { env: "BENCH_WORKERS", default: os.availableParallelism(), help: "store workers (scripts/start.mjs); 1 = one process" },
};
const PAGES = ["GET /store", "GET /store/:id", "GET /checkout"];
const STEPS = [...PAGES, "POST /api/cart", "POST /api/process-order", "POST /api/local-payments/confirm"];

const readOptions = (argv) => readKnobs(argv, KNOBS, "npm run bench -- --only waiting-room [--note text] [--no-log]");

async function crowd(store, options, productId, admin) {
  const client = createClient(store.base, { sockets: options.sockets });
  const origin = { Origin: store.base };
  const latencies = Object.fromEntries(STEPS.map((s) => [s, []]));
  const outcome = { paid: 0, soldOut: 0, errors: 0, refusedWithoutPass: 0 };
  const errorKinds = new Map();
  const fail = (kind, sample) => {
    outcome.errors++;
    const seen = errorKinds.get(kind) ?? { count: 0, sample };
    seen.count++;
    errorKinds.set(kind, seen);
  };

  // The admin's room: the bench's rate, every visitor from one address (loopback), a drop at T-0.
  const patch = await client.request("PATCH", "/api/admin/waiting-room", {
    headers: { Cookie: admin, ...origin },
    body: {
      enabled: true,
      ended: false,
      paused: false,
      admitPerMinute: options["admit-per-minute"],
      perAddress: 1_000_000,
      passMinutes: 15,
    },
  });
  if (patch.status !== 200) throw new Error(`Setting the waiting room answered ${patch.status}: ${textOf(patch)}`);
  // Long enough for the whole crowd to join first: the early group is what the draw is for.
  // Then each of them polls once while the store's CPU is read (measurePolls): 4 ms a visitor more.
  const t0 = Date.now() + Math.max(10_000, options.visitors * 12);
  const countdown = await client.request("POST", "/api/admin/settings", {
    headers: { Cookie: admin, ...origin },
    body: { key: "countdown_date", value: new Date(t0).toISOString() },
  });
  if (countdown.status !== 200) throw new Error(`Setting the countdown answered ${countdown.status}: ${textOf(countdown)}`);
  await sleep(1100); // every worker's one-second cache of the room sees the new drop

  // Without a pass the store sends a visitor to the line; a purchase is refused.
  const gate = await client.request("GET", "/store");
  if (gate.status !== 303 || gate.headers.location !== "/waiting-room")
    throw new Error(`GET /store without a pass answered ${gate.status}`);
  const refused = await client.request("POST", "/api/cart", { headers: origin, body: { productId, quantity: 1 } });
  if (refused.status === 429) outcome.refusedWithoutPass++;

  const joinStart = performance.now();
  const visitors = Array.from({ length: options.visitors }, () => ({ jar: cookieJar(), admittedAt: null }));
  let nextJoin = 0;
  await Promise.all(
    Array.from({ length: Math.min(64, options.visitors) }, async () => {
      while (nextJoin < visitors.length) {
        const v = visitors[nextJoin++];
        const response = await client.request("POST", "/api/waiting-room", { headers: origin });
        v.jar.take(response);
        if (response.status !== 201) fail(`POST /api/waiting-room: ${response.status}`, textOf(response).slice(0, 200));
      }
    }),
  );
  const joinSeconds = (performance.now() - joinStart) / 1000;
  if (Date.now() > t0) console.warn("The crowd took longer to join than the time before T-0: some joined after it.");
  // Twice: a visitor's first poll (its worker may not have seen its place yet, and the poll's
  // code is not yet warm), then the one every visitor in a line makes every interval after it.
  const firstPoll = await measurePolls(client, store, visitors, t0 - 1000);
  const pollCost = firstPoll && (await measurePolls(client, store, visitors, t0 - 1000));
  await sleep(t0 - Date.now());

  const deadline = Date.now() + options.seconds * 1000;
  const step = async (v, name, method, path, body, ok) => {
    const headers = { Cookie: v.jar.header(), ...(method === "GET" ? {} : origin) };
    const start = performance.now();
    const response = await client.request(method, path, { headers, body });
    latencies[name].push(performance.now() - start);
    v.jar.take(response);
    if (!ok.includes(response.status))
      throw Object.assign(new Error(textOf(response).slice(0, 200)), { kind: `${name}: ${response.status}` });
    return response;
  };

  async function visit(v, n) {
    // Like the page: a first look at a random moment within the interval, then every interval.
    await sleep(Math.random() * options["poll-seconds"] * 1000);
    while (Date.now() < deadline) {
      const response = await client.request("GET", "/api/waiting-room", { headers: { Cookie: v.jar.header() } });
      v.jar.take(response);
      if (response.status === 200 && jsonOf(response).state === "admitted") break;
      await sleep(options["poll-seconds"] * 1000);
    }
    if (Date.now() >= deadline) return;
    v.admittedAt = Date.now();
    try {
      await step(v, "GET /store", "GET", "/store", undefined, [200]);
      const bag = await step(v, "POST /api/cart", "POST", "/api/cart", { productId, quantity: 1 }, [200, 201, 409]);
      if (bag.status === 409) return void outcome.soldOut++;
      await step(v, "GET /store/:id", "GET", `/store/${productId}`, undefined, [200]);
      await step(v, "GET /checkout", "GET", "/checkout", undefined, [200]);
      const address = { street: `${100 + (n % 900)} Market St`, city: "Austin", state: "TX", zipCode: "78701", country: "US" };
      const rates = jsonOf(
        await client.request("POST", "/api/shipping/calculate", { headers: { Cookie: v.jar.header(), ...origin }, body: { address } }),
      );
      const customerInfo = { ...address, email: `line${n}@bench.example`, name: `Shopper ${n}`, phone: "" };
      const order = await step(
        v,
        "POST /api/process-order",
        "POST",
        "/api/process-order",
        { customerInfo, shippingMethod: rates[0]?.key },
        [201, 409],
      );
      if (order.status === 409) return void outcome.soldOut++;
      const { clientSecret } = jsonOf(order);
      await step(
        v,
        "POST /api/local-payments/confirm",
        "POST",
        "/api/local-payments/confirm",
        { clientSecret, cardNumber: "4242 4242 4242 4242" },
        [200],
      );
      outcome.paid++;
    } catch (error) {
      fail(error.kind ?? `unexpected: ${error.message}`, error.message);
    }
  }

  await Promise.all(visitors.map((v, n) => visit(v, n)));
  client.close();
  const waits = visitors.filter((v) => v.admittedAt).map((v) => (v.admittedAt - t0) / 1000);
  const lastIn = Math.max(...waits);
  const pageLatencies = PAGES.flatMap((p) => latencies[p]);
  return {
    joinSeconds,
    firstPoll,
    pollCost,
    admitted: waits.length,
    notAdmitted: visitors.length - waits.length,
    waitP50: percentile(waits, 50),
    waitP99: percentile(waits, 99),
    admittedPerMinute: waits.length / (lastIn / 60),
    pageP99: percentile(pageLatencies, 99),
    outcome,
    errorKinds: [...errorKinds].map(([kind, { count, sample }]) => ({ kind, count, sample })),
    steps: STEPS.map((s) => ({
      step: s,
      requests: latencies[s].length,
      p50: percentile(latencies[s], 50),
      p99: percentile(latencies[s], 99),
    })),
  };
}

/**
 * What one waiting visitor's poll costs the store: every visitor in the line asks once (as the
 * page does every interval), before T-0, while the store's CPU (every process and thread) is read
 * around them. Stops early at `until`, so the draw is not delayed; null without /proc. Run twice:
 * the line's size that fits is the second pass's, a poll as a line makes it interval after
 * interval; the first pass's cost is reported beside it.
 */
async function measurePolls(client, store, visitors, until) {
  const pids = processTree(store.pid);
  const before = cpuNanos(pids);
  if (before === null) return null;
  const start = performance.now();
  let polls = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < visitors.length && Date.now() < until) {
        const v = visitors[next++];
        const response = await client.request("GET", "/api/waiting-room", { headers: { Cookie: v.jar.header() } });
        if (response.status === 200) polls++;
      }
    }),
  );
  const cpu = cpuNanos(pids);
  if (polls < visitors.length) console.warn(`Only ${polls} of ${visitors.length} visitors polled before T-0 (a loaded machine?).`);
  if (cpu === null || polls === 0) return null;
  return { polls, seconds: (performance.now() - start) / 1000, cpuMicrosPerPoll: (cpu - before) / 1e3 / polls };
}

/** How many visitors polling every `pollSeconds` the machine's cores answer at full use, at the measured cost. */
export const lineThatFits = (cpuMicrosPerPoll, cores, pollSeconds) => Math.floor((cores * 1e6 * pollSeconds) / cpuMicrosPerPoll);

function format({ startedAt, machine: m, options, result: r, sold }) {
  const stamp = startedAt.toISOString().slice(0, 16).replace("T", " ");
  const lines = [`## ${stamp} UTC · waiting-room rush · ${m.cores} cores (${m.cpu}) · Node ${m.node}`, ""];
  lines.push(
    `Load average (1 min): ${fixed(m.load, 2)} before; ${options.workers} store worker(s).${options.note ? ` ${options.note}` : ""}`,
    "",
  );
  lines.push(
    `**Waiting room**: ${options.visitors} visitors joined before T-0 (in ${fixed(r.joinSeconds, 1)} s), ${options.units} units, ` +
      `admission ${options["admit-per-minute"]}/min, polling every ${options["poll-seconds"]} s: ` +
      `admitted ${r.admitted} (${fixed(r.admittedPerMinute)}/min observed)${r.notAdmitted ? `, not admitted in time ${r.notAdmitted}` : ""}; ` +
      `**wait p50 ${fixed(r.waitP50, 1)} s, p99 ${fixed(r.waitP99, 1)} s**; **page p99 of the admitted ${fixed(r.pageP99)} ms** ` +
      `(${r.pageP99 <= 500 ? "within" : "OVER"} 0.5 s). Paid ${r.outcome.paid} (${sold.paidUnits} units in the database, ${sold.left} left), ` +
      `sold out ${r.outcome.soldOut}, **oversold ${sold.oversold}**, errors ${r.outcome.errors}; a purchase without a pass ` +
      `${r.outcome.refusedWithoutPass ? "was refused (429)" : "was NOT refused"}.`,
    "",
  );
  if (r.pollCost) {
    const fits = lineThatFits(r.pollCost.cpuMicrosPerPoll, m.cores, options["poll-seconds"]);
    lines.push(
      `**One waiting visitor's poll** (each of ${r.pollCost.polls} visitors in the line asked twice before T-0, ${fixed(r.pollCost.seconds, 1)} s a pass): ` +
        `${fixed(r.pollCost.cpuMicrosPerPoll, 1)} µs of store CPU a poll after the first (the first: ${fixed(r.firstPoll.cpuMicrosPerPoll, 1)} µs). ` +
        `Polling every ${options["poll-seconds"]} s, the ${m.cores} cores answer a line of ` +
        `**${fits.toLocaleString("en-US")}** at full use (${Math.floor(fits / 2).toLocaleString("en-US")} at half), ` +
        `${fits >= 100_000 ? "so a line of 100,000 fits" : "so a line of 100,000 does NOT fit"}.`,
      "",
    );
  }
  lines.push("| step (admitted shoppers) | requests | p50 ms | p99 ms |", "|---|---|---|---|");
  for (const s of r.steps) lines.push(`| ${s.step} | ${s.requests} | ${fixed(s.p50, 1)} | ${fixed(s.p99, 1)} |`);
  for (const e of r.errorKinds) lines.push("", `Error ${e.kind} ×${e.count}: ${e.sample.replace(/\s+/g, " ")}`);
  lines.push("");
  return lines.join("\n");
}

/** Runs the waiting-room rush on a fresh built store; resolves with the exit code. */
export async function main(argv = process.argv.slice(2)) {
  let options;
  try {
    options = readOptions(argv);
    assertBuilt();
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  const startedAt = new Date();
  const before = machine();
  console.log(`${before.cores} cores, load ${before.load.toFixed(2)}; starting the built store (${options.workers} workers)…`);
  const store = await startStore({ workers: options.workers });
  try {
    const client = createClient(store.base, { sockets: 2 });
    const productId = await createDropProduct(client, store.admin, options.units);
    const login = await client.request("POST", "/api/login", { body: store.admin });
    client.close();
    console.log(
      `Waiting-room rush: ${options.visitors} visitors, ${options.units} units, ${options["admit-per-minute"]} admitted a minute…`,
    );
    const result = await crowd(store, options, productId, cookiesOf(login));
    await store.stop();
    const sold = await soldInDatabase(store.databaseFile, productId, options.units);
    const section = format({ startedAt, machine: before, options, result, sold });
    console.log(`\n${section}`);
    if (options.log) {
      appendSection(section);
      console.log(`Appended to ${PERF_LOG}.`);
    }
    return sold.oversold > 0 ? 3 : 0;
  } catch (error) {
    console.error(error.message);
    if (store.stderr()) console.error(store.stderr());
    return 1;
  } finally {
    await store.stop();
    store.cleanUp();
  }
}

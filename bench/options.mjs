// The bench's knobs: `--name value` flags win over BENCH_* environment variables, which win over
// the defaults (a drop: 1,000 shoppers at once for 200 units).
import os from "node:os";
import { parseArgs } from "node:util";

const KNOBS = {
  shoppers: { env: "BENCH_SHOPPERS", default: 1000, help: "shoppers in the rush" },
  units: { env: "BENCH_UNITS", default: 200, help: "units of the product on sale" },
  // The rush is 1,000 shoppers at once; the ratio keeps 50 requests in flight.
  concurrency: {
    env: "BENCH_CONCURRENCY",
    default: null,
    help: "requests in flight at once. Default: 50 in the same-bytes ratio, every shopper at once in the rush",
  },
  // As `npm start` runs the store: one worker per core unless told (1 = server.js in one process).
  // With several instances, the cores are shared out (see below).
  workers: {
    env: "BENCH_WORKERS",
    default: null,
    help: "store workers per instance (scripts/start.mjs); 1 = one process. Default: the cores divided among the instances (at least 1)",
  },
  instances: { env: "BENCH_INSTANCES", default: 1, help: "separate store instances on one database (each its own port and workers)" },
  seconds: { env: "BENCH_SECONDS", default: 300, help: "the whole run stops after this long" },
  rounds: { env: "BENCH_ROUNDS", default: 5, help: "A/B rounds per route in the same-bytes ratio" },
  // A round must outlast the store's periodic work (each hot page is rendered again about twice a
  // second): rounds of 300 or 2,000 answers (0.01–0.1 s) caught that pause or not, at random.
  requests: { env: "BENCH_REQUESTS", default: 10_000, help: "requests per round in the same-bytes ratio" },
  pairs: { env: "BENCH_PAIRS", default: 3, help: "with --baseline: rounds of A (this checkout) then B (the baseline), at least 3" },
};

/**
 * @param {string[]} [argv]
 * @param {Record<string, string | undefined>} [env]
 */
export function readOptions(argv = process.argv.slice(2), env = process.env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...Object.fromEntries(Object.keys(KNOBS).map((name) => [name, { type: "string" }])),
      only: { type: "string" },
      database: { type: "string" },
      balance: { type: "string" },
      note: { type: "string" },
      baseline: { type: "string" },
      profile: { type: "string" },
      json: { type: "string" },
      "no-log": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(
      "npm run bench -- [--only ratio|rush|waiting-room|lighthouse|reports] [--baseline <git ref>] [--database sqlite|postgres|postgres://…] [--balance request|shopper] [--profile browser|plain] [--note text] [--no-log]",
    );
    console.log("  --baseline (BENCH_BASELINE): build that commit in a temporary worktree and measure it beside this checkout,");
    console.log("    A B A B, --pairs rounds; each figure side by side with the ratio A/B and its spread");
    console.log("  --profile (BENCH_PROFILE, default browser): the rush's shoppers send a desktop browser's User-Agent and");
    console.log("    Accept headers (the store records their page views); plain: no User-Agent, as before issue 24");
    console.log("  --database (BENCH_DATABASE, default sqlite): the instances' one database; postgres starts a throwaway server;");
    console.log("    a postgres:// URL names an empty database of your own");
    console.log("  --balance (BENCH_BALANCE, default request): over several instances, each request goes to the next one");
    console.log("    (a non-sticky balancer), or each shopper stays on one (shopper: a sticky balancer)");
    console.log("  BENCH_CPU_PROF=dir: a CPU profile of each store process (node --cpu-prof) in dir");
    console.log('  BENCH_NODE_FLAGS="--flag …": node (V8) flags for every store process, for experiments');
    for (const [name, knob] of Object.entries(KNOBS))
      console.log(`  --${name} (${knob.env}, default ${knob.default ?? "shared out"}): ${knob.help}`);
    process.exit(0);
  }
  const options = {};
  for (const [name, knob] of Object.entries(KNOBS)) {
    const raw = values[name] ?? env[knob.env];
    if ((raw === undefined || raw === "") && knob.default === null) continue;
    const value = raw === undefined || raw === "" ? knob.default : Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} (${knob.env}) must be a whole number above 0, not "${raw}".`);
    options[name] = value;
  }
  const only = values.only ?? env.BENCH_ONLY;
  if (only && only !== "ratio" && only !== "rush") throw new Error(`--only takes "ratio" or "rush", not "${only}".`);
  // The same-bytes ratio compares one store with bare node:http: several instances measure the rush only.
  options.ratio = only !== "rush" && options.instances === 1;
  options.rush = only !== "ratio";
  // Several instances on one box share its cores: by default each gets its share, so 2 instances
  // on 2 cores run 1 worker each, as many store processes as one instance with a worker per core.
  options.workers ??= Math.max(1, Math.floor(os.availableParallelism() / options.instances));
  options.ratioConcurrency = options.concurrency ?? 50;
  options.rushConcurrency = options.concurrency ?? options.shoppers;
  const database = values.database ?? env.BENCH_DATABASE ?? "sqlite";
  if (!["sqlite", "postgres"].includes(database) && !/^postgres(ql)?:\/\//.test(database)) {
    throw new Error(`--database takes "sqlite", "postgres" (a throwaway server) or a postgres:// URL, not "${database}".`);
  }
  options.database = database;
  const balance = values.balance ?? env.BENCH_BALANCE ?? "request";
  if (balance !== "request" && balance !== "shopper") throw new Error(`--balance takes "request" or "shopper", not "${balance}".`);
  options.balance = balance;
  const profile = values.profile ?? env.BENCH_PROFILE ?? "browser";
  if (profile !== "browser" && profile !== "plain") throw new Error(`--profile takes "browser" or "plain", not "${profile}".`);
  options.profile = profile;
  options.baseline = values.baseline ?? env.BENCH_BASELINE ?? null;
  if (options.baseline !== null && !/^[\w./~^@{}-]{1,100}$/.test(options.baseline)) {
    throw new Error(`--baseline takes a git ref (a commit, branch or tag), not "${options.baseline}".`);
  }
  if (options.baseline && options.pairs < 3) throw new Error("--pairs must be at least 3 with --baseline.");
  options.json = values.json ?? null;
  options.note = values.note ?? env.BENCH_NOTE ?? "";
  options.log = !values["no-log"];
  return options;
}

// The bench's knobs: `--name value` flags win over BENCH_* environment variables, which win over
// the defaults (a drop: 1,000 shoppers at once for 200 units).
import os from "node:os";
import { parseArgs } from "node:util";

const KNOBS = {
  shoppers: { env: "BENCH_SHOPPERS", default: 1000, help: "shoppers in the rush" },
  units: { env: "BENCH_UNITS", default: 200, help: "units of the product on sale" },
  concurrency: { env: "BENCH_CONCURRENCY", default: 50, help: "requests (shoppers) in flight at once" },
  // As `npm start` runs the store: one worker per core unless told (1 = server.js in one process).
  workers: { env: "BENCH_WORKERS", default: os.availableParallelism(), help: "store workers (scripts/start.mjs); 1 = one process" },
  seconds: { env: "BENCH_SECONDS", default: 300, help: "the whole run stops after this long" },
  rounds: { env: "BENCH_ROUNDS", default: 5, help: "A/B rounds per route in the same-bytes ratio" },
  requests: { env: "BENCH_REQUESTS", default: 300, help: "requests per round in the same-bytes ratio" },
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
      note: { type: "string" },
      "no-log": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log("npm run bench -- [--only ratio|rush|waiting-room|reports] [--note text] [--no-log]");
    console.log("  BENCH_CPU_PROF=dir: a CPU profile of each store process (node --cpu-prof) in dir");
    for (const [name, knob] of Object.entries(KNOBS)) console.log(`  --${name} (${knob.env}, default ${knob.default}): ${knob.help}`);
    process.exit(0);
  }
  const options = {};
  for (const [name, knob] of Object.entries(KNOBS)) {
    const raw = values[name] ?? env[knob.env];
    const value = raw === undefined || raw === "" ? knob.default : Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} (${knob.env}) must be a whole number above 0, not "${raw}".`);
    options[name] = value;
  }
  const only = values.only ?? env.BENCH_ONLY;
  if (only && only !== "ratio" && only !== "rush") throw new Error(`--only takes "ratio" or "rush", not "${only}".`);
  options.ratio = only !== "rush";
  options.rush = only !== "ratio";
  options.note = values.note ?? env.BENCH_NOTE ?? "";
  options.log = !values["no-log"];
  return options;
}

// The command line of a bench of its own (`--only waiting-room`, `--only reports`): whole-number
// knobs, each from `--name` or its environment variable, plus --note and --no-log for docs/perf.md.
import { parseArgs } from "node:util";

export function readKnobs(argv, knobs, usage) {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      ...Object.fromEntries(Object.keys(knobs).map((name) => [name, { type: "string" }])),
      "no-log": { type: "boolean" },
      note: { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(usage);
    for (const [name, knob] of Object.entries(knobs)) console.log(`  --${name} (${knob.env}, default ${knob.default}): ${knob.help}`);
    process.exit(0);
  }
  const options = {};
  for (const [name, knob] of Object.entries(knobs)) {
    const raw = values[name] ?? process.env[knob.env];
    const value = raw === undefined || raw === "" ? knob.default : Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} (${knob.env}) must be a whole number above 0, not "${raw}".`);
    options[name] = value;
  }
  options.log = !values["no-log"];
  options.note = typeof values.note === "string" ? values.note : (process.env.BENCH_NOTE ?? "");
  return options;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
export const fixed = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "—");

// `npm run bench -- --baseline <git ref>`: this checkout (A) against an earlier commit (B), in the
// same run on the same machine, because absolute figures move ±25 % between machines of one kind.
// B is built in a git worktree of its own under the temp folder (kept, so a second run reuses it).
// Each round runs the whole bench on A then on B (A B A B …); each figure is reported as the median
// of the rounds on each side, the ratio A/B of the medians, and the spread of the per-round ratios.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fixed } from "./knobs.mjs";
import { appendSection, machine, PERF_LOG } from "./perf-log.mjs";
import { median } from "./stats.mjs";
import { assertBuilt } from "./store-server.mjs";

const root = path.resolve(import.meta.dirname, "..");
const PAGE_STEPS = ["GET /store", "GET /store/:id", "GET /checkout"];

function run(command, args, { cwd = root, quiet = false, env } = {}) {
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", stdio: quiet ? "pipe" : "inherit" });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed (exit ${result.status}) in ${cwd}${quiet ? `:\n${result.stderr}` : ""}`);
  }
  return (result.stdout ?? "").trim();
}

/** The baseline commit's patches/ for patch-package, each file's name and text. */
export function patchesAt(sha) {
  const names = run("git", ["ls-tree", "--name-only", sha, "patches/"], { quiet: true }).split("\n").filter(Boolean);
  return names
    .sort()
    .map((name) => `${name}\n${run("git", ["show", `${sha}:${name}`], { quiet: true })}`)
    .join("\n");
}

/** This checkout's patches/, in the same form. */
export function patchesHere() {
  const dir = path.join(root, "patches");
  if (!fs.existsSync(dir)) return "";
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => `patches/${name}\n${fs.readFileSync(path.join(dir, name), "utf8").trim()}`)
    .join("\n");
}

/** The baseline's worktree, with node_modules (shared when the lockfile and the patches match) and a build. */
export function prepareBaseline(ref) {
  const sha = run("git", ["rev-parse", "--verify", `${ref}^{commit}`], { quiet: true });
  const dir = path.join(os.tmpdir(), `store-bench-baseline-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(dir, ".git"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    run("git", ["worktree", "prune"], { quiet: true });
    run("git", ["worktree", "add", "--detach", dir, sha], { quiet: true });
  }
  if (!fs.existsSync(path.join(dir, "node_modules"))) {
    const lockThen = run("git", ["show", `${sha}:package-lock.json`], { quiet: true });
    const lockNow = fs.readFileSync(path.join(root, "package-lock.json"), "utf8").trim();
    // patch-package's patches change installed files: a baseline with other patches installs its own.
    if (lockThen === lockNow && patchesAt(sha) === patchesHere()) {
      // Hard links: the same installed files (native better-sqlite3 included) at no copying cost.
      console.log(`Baseline ${sha.slice(0, 12)}: same lockfile, linking this checkout's node_modules…`);
      run("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")]);
    } else {
      console.log(`Baseline ${sha.slice(0, 12)}: another lockfile, installing (npm ci)…`);
      run("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir });
    }
  }
  if (!fs.existsSync(path.join(dir, "build/server/index.js"))) {
    console.log(`Baseline ${sha.slice(0, 12)}: building…`);
    run("npm", ["run", "build"], { cwd: dir, quiet: true });
  }
  return { sha, dir };
}

/** This process's arguments, less the conductor's own (the rounds get --json and --no-log instead). */
export function roundArgs(argv) {
  const own = new Set(["--baseline", "--pairs", "--json", "--note"]);
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const [name] = argv[i].split("=");
    if (own.has(name)) {
      if (!argv[i].includes("=")) i++;
      continue;
    }
    if (name === "--no-log") continue;
    out.push(argv[i]);
  }
  return out;
}

/** The figures compared, read from one round's results; higher-is-better says which way is good. */
export function figuresOf(results) {
  const figures = [];
  const rush = results.rush;
  if (rush) {
    const { outcome: o } = rush;
    const shoppers = o.paid + o.soldOut + o.errors;
    figures.push({ name: "shoppers/s", value: rush.shoppersPerSecond, higherIsBetter: true, digits: 1 });
    const pages = rush.steps.filter((s) => PAGE_STEPS.includes(s.step));
    figures.push({ name: "page p99 ms (worst page step)", value: Math.max(...pages.map((s) => s.p99)), digits: 0 });
    for (const s of rush.steps) figures.push({ name: `${s.step} p99 ms`, value: s.p99, digits: 0 });
    if (rush.cpu && shoppers) {
      figures.push({ name: "store CPU ms/shopper (rush)", value: rush.cpu.rushMs / shoppers, digits: 2 });
      figures.push({ name: "store CPU ms/shopper (until fulfilled)", value: rush.cpu.settledMs / shoppers, digits: 2 });
    }
    figures.push({ name: "paid", value: o.paid, digits: 0, exact: true });
    figures.push({ name: "oversold", value: rush.sold?.oversold ?? NaN, digits: 0, exact: true });
    figures.push({ name: "errors", value: o.errors, digits: 0, exact: true });
    // A dropped connection is retried by TCP 1 s and 3 s later: a round with any is not like the others.
    if (rush.listenOverflows !== undefined)
      figures.push({ name: "listen queue overflows (host)", value: rush.listenOverflows, digits: 0, exact: true });
  }
  for (const row of results.ratio ?? []) {
    figures.push({ name: `same-bytes ratio ${row.route}`, value: row.ratio, higherIsBetter: true, digits: 3 });
    figures.push({ name: `store CPU µs/answer ${row.route}`, value: row.storeCpuMicros, digits: 1 });
  }
  return figures;
}

/** Per figure: the medians of A and B, their ratio, and the min–max of the per-round ratios. */
export function compare(roundsA, roundsB) {
  const names = figuresOf(roundsA[0]).map((f) => f.name);
  return names.map((name) => {
    const pick = (results) => figuresOf(results).find((f) => f.name === name);
    const a = roundsA.map(pick).filter(Boolean);
    const b = roundsB.map(pick).filter(Boolean);
    const { digits, exact, higherIsBetter } = a[0];
    const perRound = a.map((f, i) => (b[i] ? f.value / b[i].value : NaN)).filter(Number.isFinite);
    const medianA = median(a.map((f) => f.value));
    const medianB = median(b.map((f) => f.value));
    return {
      name,
      digits,
      exact: Boolean(exact),
      higherIsBetter: Boolean(higherIsBetter),
      a: a.map((f) => f.value),
      b: b.map((f) => f.value),
      medianA,
      medianB,
      ratio: medianA / medianB,
      spread: perRound.length ? [Math.min(...perRound), Math.max(...perRound)] : [NaN, NaN],
    };
  });
}

export function formatComparison({ startedAt, machine: m, loadAfter, options, here, baseline, rows, sample }) {
  const stamp = startedAt.toISOString().slice(0, 16).replace("T", " ");
  const lines = [`## ${stamp} UTC · ${m.cores} cores (${m.cpu}) · Node ${m.node} · A/B against a baseline`, ""];
  lines.push(
    `A = ${here}, B = ${baseline} (built in a worktree of its own). ${options.pairs} rounds, A then B in each; ` +
      `load average (1 min) ${fixed(m.load, 2)} before, ${fixed(loadAfter, 2)} after.` +
      (sample ? ` ${sample}` : "") +
      (options.note ? ` ${options.note}` : ""),
    "",
    "Each figure: median of the rounds on each side; ratio = A ÷ B of the medians; spread = lowest–highest of the per-round ratios.",
    "",
    "| figure | A (rounds) | B (rounds) | A median | B median | ratio A/B | spread |",
    "|---|---|---|---|---|---|---|",
  );
  for (const r of rows) {
    const list = (values) => values.map((v) => fixed(v, r.digits)).join(", ");
    const ratio = r.exact ? "" : fixed(r.ratio, 2);
    const spread = r.exact ? "" : `${fixed(r.spread[0], 2)}–${fixed(r.spread[1], 2)}`;
    lines.push(
      `| ${r.name} | ${list(r.a)} | ${list(r.b)} | ${fixed(r.medianA, r.digits)} | ${fixed(r.medianB, r.digits)} | ${ratio} | ${spread} |`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

function describeHead() {
  const sha = run("git", ["rev-parse", "--short=12", "HEAD"], { quiet: true });
  const dirty = run("git", ["status", "--porcelain", "--", "app", "server", "db", "scripts", "server.js"], { quiet: true });
  return dirty ? `${sha} with uncommitted changes` : sha;
}

/** Runs the rounds; returns the process exit code (3 when either side oversold). */
export async function main(options) {
  assertBuilt();
  const startedAt = new Date();
  const before = machine();
  const baseline = prepareBaseline(options.baseline);
  const here = describeHead();
  const args = roundArgs(process.argv.slice(2));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "store-bench-ab-"));
  const env = { ...process.env };
  delete env.BENCH_BASELINE;
  delete env.BENCH_STORE_ROOT;
  const sides = [
    { label: "A", root: undefined, rounds: [] },
    { label: "B", root: baseline.dir, rounds: [] },
  ];
  let exitCode = 0;
  try {
    for (let round = 1; round <= options.pairs; round++) {
      for (const side of sides) {
        console.log(`\nRound ${round} of ${options.pairs}: ${side.label} (${side.label === "A" ? here : baseline.sha.slice(0, 12)})`);
        const json = path.join(scratch, `${side.label}-${round}.json`);
        const result = spawnSync(process.execPath, [path.join(root, "bench/run.mjs"), ...args, "--no-log", "--json", json], {
          cwd: root,
          stdio: "inherit",
          env: side.root ? { ...env, BENCH_STORE_ROOT: side.root } : env,
        });
        if (result.status === 3) exitCode = 3;
        else if (result.status !== 0) throw new Error(`Round ${round} on ${side.label} failed (exit ${result.status}).`);
        side.rounds.push(JSON.parse(fs.readFileSync(json, "utf8")));
      }
    }
  } catch (error) {
    console.error(error.message);
    return 1;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const rows = compare(sides[0].rounds, sides[1].rounds);
  const first = sides[0].rounds[0].options;
  const sample = first.rush
    ? `Rush: ${first.shoppers} shoppers for ${first.units} units, ${first.rushConcurrency} at a time, ${first.workers} workers, ${first.profile} profile.`
    : "";
  const section = formatComparison({
    startedAt,
    machine: before,
    loadAfter: machine().load,
    options,
    here,
    baseline: baseline.sha.slice(0, 12),
    rows,
    sample,
  });
  console.log(`\n${section}`);
  if (options.log) {
    appendSection(section);
    console.log(`Appended to ${PERF_LOG}.`);
  }
  console.log(`The baseline's worktree stays at ${baseline.dir} for the next run (git worktree remove to drop it).`);
  if (exitCode === 3) console.error("OVERSOLD on one side: more units were paid for than there were.");
  return exitCode;
}

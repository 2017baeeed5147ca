// The results as a dated Markdown section of docs/perf.md, with the machine they were taken on.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
export const PERF_LOG = path.join(root, "docs/perf.md");

const fixed = (value, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : "–");

export function machine() {
  const cpus = os.cpus();
  return { cores: cpus.length, cpu: cpus[0]?.model.trim() ?? "unknown CPU", node: process.version, load: os.loadavg()[0] };
}

export function formatSection({ startedAt, machine: m, loadAfter, options, ratio, rush }) {
  const lines = [];
  const stamp = startedAt.toISOString().slice(0, 16).replace("T", " ");
  lines.push(`## ${stamp} UTC · ${m.cores} cores (${m.cpu}) · Node ${m.node}`, "");
  lines.push(
    `Load average (1 min): ${fixed(m.load, 2)} before, ${fixed(loadAfter, 2)} after.${options.note ? ` ${options.note}` : ""}`,
    "",
  );
  if (ratio) {
    lines.push(
      `**Same-bytes ratio** (${options.rounds} alternating rounds of ${options.requests} requests, ${options.ratioConcurrency} at a time; median of the rounds):`,
      "",
    );
    const p = ratio[0]?.processes;
    if (p) {
      lines.push(
        `Processes: store ${p.store}, bare node:http ${p.bare} (its own, not the bench's), load generator ${p.loadGenerator}. ` +
          "CPU µs per answer: every thread of the server's processes over the round (Linux /proc), median of the rounds; " +
          "CPU ratio = bare ÷ store, what an answer costs the server whatever the load generator kept up with.",
        "",
      );
    }
    lines.push(
      "| route | bytes sent | store req/s | bare node:http req/s | ratio | store CPU µs/answer | bare CPU µs/answer | CPU ratio |",
      "|---|---|---|---|---|---|---|---|",
    );
    for (const row of ratio) {
      lines.push(
        `| ${row.route} | ${row.bytes} (${row.encoding}) | ${fixed(row.storePerSecond)} | ${fixed(row.barePerSecond)} | ${fixed(row.ratio, 3)} | ` +
          `${fixed(row.storeCpuMicros, 1)} | ${fixed(row.bareCpuMicros, 1)} | ${fixed(row.cpuRatio, 3)} |`,
      );
    }
    lines.push("");
  }
  if (rush) {
    const { outcome: o } = rush;
    lines.push(
      `**Rush**: ${options.shoppers} shoppers for ${options.units} units, ${options.rushConcurrency} at a time: ` +
        `${fixed(rush.shoppersPerSecond, 1)} shoppers/s over ${fixed(rush.seconds, 1)} s; ` +
        `paid ${o.paid} (${rush.sold.paidUnits} units in the database, ${rush.sold.left} left), sold out ${o.soldOut}, ` +
        `**oversold ${rush.sold.oversold}**, errors ${o.errors}${o.notRun ? `, not run (time bound) ${o.notRun}` : ""}.` +
        (rush.listenOverflows === undefined ? "" : ` Connections dropped by a full listen queue (host-wide): ${rush.listenOverflows}.`),
      "",
    );
    const cpu = rush.cpu;
    if (cpu) {
      const shoppers = o.paid + o.soldOut + o.errors;
      lines.push(
        `**Store CPU** (${cpu.processes} processes, every thread, Linux /proc): ${fixed(cpu.rushMs / shoppers, 2)} ms per shopper during the rush ` +
          `(${fixed(cpu.rushMs / 1000, 2)} s); ${fixed(cpu.settledMs / shoppers, 2)} ms per shopper until every paid order was fulfilled ` +
          `(${cpu.settledSeconds === null ? "not within 60 s" : `${fixed(cpu.settledSeconds, 1)} s after the last shopper`}). ` +
          `Load generator: ${fixed(cpu.generatorMs / 1000, 2)} s.`,
        "",
      );
    }
    lines.push("| step | requests | p50 ms | p99 ms |", "|---|---|---|---|");
    for (const s of rush.steps) lines.push(`| ${s.step} | ${s.requests} | ${fixed(s.p50, 1)} | ${fixed(s.p99, 1)} |`);
    if (rush.served.length > 1) {
      lines.push("", `Requests per instance: ${rush.served.map((n, i) => `${i + 1}: ${n}`).join(", ")}.`);
    }
    for (const e of rush.errorKinds) lines.push(``, `Error ${e.kind} ×${e.count}: ${e.sample.replace(/\s+/g, " ")}`);
    lines.push("");
  }
  return lines.join("\n");
}

export function appendSection(section) {
  fs.appendFileSync(PERF_LOG, `\n${section}`);
}

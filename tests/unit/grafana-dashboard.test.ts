// docs/ops/grafana-dashboard.json: every query is PromQL promtool accepts, and every store_ metric it
// reads is one the store exposes (server/observability/metrics.ts and cluster-metrics.ts).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dashboard = JSON.parse(fs.readFileSync(path.join(root, "docs/ops/grafana-dashboard.json"), "utf8")) as {
  panels: { title: string; targets?: { expr: string }[] }[];
};
const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
const exposed = ["server/observability/metrics.ts", "server/observability/cluster-metrics.ts"]
  .map((file) => fs.readFileSync(path.join(root, file), "utf8"))
  .join("\n");

describe("the Grafana dashboard", () => {
  it("has the drop-day, fulfilment and process rows", () => {
    expect(dashboard.panels.filter((panel) => !panel.targets).map((panel) => panel.title)).toEqual(["Drop day", "Fulfilment", "Process"]);
    expect(queries.length).toBeGreaterThan(15);
  });

  it("reads only metrics the store exposes", () => {
    for (const { panel, expr } of queries) {
      for (const [name] of expr.matchAll(/store_[a-z_]+/g)) {
        const base = name.replace(/_(bucket|count|sum)$/, "");
        expect(exposed.includes(`"${base}"`) || exposed.includes(`"${name}"`), `${panel}: ${name}`).toBe(true);
      }
    }
  });

  it("is PromQL that promtool accepts", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dashboard-")), "rules.yml");
    const rules = queries.map(({ expr }, i) => `      - record: dashboard:query_${i}\n        expr: ${JSON.stringify(expr)}`).join("\n");
    fs.writeFileSync(file, `groups:\n  - name: dashboard\n    rules:\n${rules}\n`);
    const result = spawnSync("promtool", ["check", "rules", file], { encoding: "utf8" });
    expect(result.error).toBeUndefined();
    expect(`${result.stdout}${result.stderr}`).toMatch(/SUCCESS/);
    expect(result.status).toBe(0);
  });
});

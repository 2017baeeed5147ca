import { spawnSync } from "node:child_process";

/**
 * A sample's value in Prometheus text: the sum over every series of `name` whose labels include
 * all of `labels` (0 when none does).
 */
export function sampleSum(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = new Map([...(match[3] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([key, value]) => have.get(key) === value)) total += Number(match[4]);
  }
  return total;
}

/** `promtool check metrics` on a scrape (Debian's `prometheus` package): its exit code and complaints. */
export function promtoolCheck(text: string): { status: number | null; output: string } {
  const result = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
  if (result.error) throw new Error(`promtool is not installed (apt-get install prometheus; .ci/run does): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

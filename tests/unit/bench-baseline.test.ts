import { describe, expect, it } from "vitest";
import { compare, figuresOf, formatComparison, patchesAt, patchesHere, roundArgs } from "../../bench/baseline.mjs";
import { listenOverflows } from "../../bench/cpu-time.mjs";
import { readOptions } from "../../bench/options.mjs";
import { profileHeaders } from "../../bench/rush.mjs";

const round = (shoppersPerSecond: number, cpuMs: number, p99: number) => ({
  options: {},
  rush: {
    shoppersPerSecond,
    outcome: { paid: 200, soldOut: 800, errors: 0, notRun: 0 },
    sold: { oversold: 0 },
    cpu: { rushMs: cpuMs * 1000, settledMs: cpuMs * 1200 },
    steps: [
      { step: "GET /store", p99 },
      { step: "POST /api/cart", p99: 5 },
      { step: "GET /checkout", p99: p99 / 2 },
    ],
  },
  ratio: [{ route: "/store (bag cookie)", ratio: 0.8, storeCpuMicros: 50 }],
});

describe("the bench against a baseline", () => {
  it("tells a baseline whose installed packages were patched otherwise from this checkout", () => {
    // 3daa0de predates patches/: its node_modules cannot be this checkout's patched ones.
    expect(patchesAt("3daa0de")).toBe("");
    expect(patchesHere()).toContain("patches/@remix-run+router+1.23.3.patch\ndiff --git");
    expect(patchesHere()).not.toBe(patchesAt("3daa0de"));
  });

  it("takes a git ref and at least 3 rounds, and refuses anything else", () => {
    expect(readOptions(["--baseline", "3daa0de"], {})).toMatchObject({ baseline: "3daa0de", pairs: 3, profile: "browser" });
    expect(readOptions([], { BENCH_BASELINE: "main~2" })).toMatchObject({ baseline: "main~2" });
    expect(() => readOptions(["--baseline", "x; rm -rf /"], {})).toThrow("--baseline takes a git ref");
    expect(() => readOptions(["--baseline", "main", "--pairs", "2"], {})).toThrow("--pairs must be at least 3");
    expect(() => readOptions(["--profile", "bot"], {})).toThrow('--profile takes "browser" or "plain"');
  });

  it("passes each round the knobs it was given, not the conductor's own", () => {
    expect(
      roundArgs(["--baseline", "3daa0de", "--only", "rush", "--pairs=4", "--shoppers", "500", "--note", "hi", "--no-log", "--json", "x"]),
    ).toEqual(["--only", "rush", "--shoppers", "500"]);
  });

  it("compares the medians of each side and gives the spread of the per-round ratios", () => {
    const rows = compare(
      [round(300, 4, 800), round(320, 5, 900), round(310, 4.5, 700)],
      [round(200, 9, 1600), round(190, 10, 1500), round(210, 8, 1700)],
    );
    const speed = rows.find((r) => r.name === "shoppers/s")!;
    expect(speed.medianA).toBe(310);
    expect(speed.medianB).toBe(200);
    expect(speed.ratio).toBeCloseTo(1.55);
    expect(speed.spread[0]).toBeCloseTo(310 / 210);
    expect(speed.spread[1]).toBeCloseTo(320 / 190);
    const cpu = rows.find((r) => r.name === "store CPU ms/shopper (rush)")!;
    expect(cpu.medianA).toBeCloseTo(4.5);
    expect(cpu.ratio).toBeCloseTo(0.5);
    expect(rows.find((r) => r.name === "page p99 ms (worst page step)")!.a).toEqual([800, 900, 700]);
    const table = formatComparison({
      startedAt: new Date("2026-11-28T05:00:00Z"),
      machine: { cores: 2, cpu: "CPU", node: "v20", load: 1 },
      loadAfter: 2,
      options: { pairs: 3, note: "" },
      here: "abc",
      baseline: "3daa0de",
      rows,
      sample: "",
    });
    expect(table).toContain("| shoppers/s | 300.0, 320.0, 310.0 | 200.0, 190.0, 210.0 | 310.0 | 200.0 | 1.55 | 1.48–1.68 |");
    expect(table).toContain("| oversold | 0, 0, 0 | 0, 0, 0 | 0 | 0 |  |  |");
  });

  it("reads the figures a round produced, the ratio's included", () => {
    const names = figuresOf(round(300, 4, 800)).map((f) => f.name);
    expect(names).toContain("same-bytes ratio /store (bag cookie)");
    expect(names).toContain("store CPU ms/shopper (until fulfilled)");
    // Counted only where /proc/net/netstat was read.
    expect(names).not.toContain("listen queue overflows (host)");
    const dropped = round(300, 4, 800);
    Object.assign(dropped.rush, { listenOverflows: 879 });
    expect(figuresOf(dropped).find((f) => f.name === "listen queue overflows (host)")).toMatchObject({ value: 879, exact: true });
  });

  it("reads the host's listen queue overflows as a count that only grows", () => {
    const first = listenOverflows();
    expect(first).toEqual(expect.any(Number));
    expect(listenOverflows()).toBeGreaterThanOrEqual(first!);
  });

  it("sends a desktop browser's headers in the browser profile, none in the plain one", () => {
    expect(profileHeaders("browser", "GET")).toMatchObject({ "Accept-Encoding": "br, gzip", Accept: expect.stringContaining("text/html") });
    expect(profileHeaders("browser", "POST")["User-Agent"]).toMatch(/Chrome\/\d+/);
    expect(profileHeaders("plain", "GET")).toEqual({});
  });
});

describe("the waiting line's poll cost", () => {
  it("says how long a line the cores answer at the measured CPU per poll", async () => {
    const { lineThatFits } = await import("../../bench/waiting-room.mjs");
    // 2 cores, a poll every 5 s: 10 s of CPU a 5 s interval; at 100 µs a poll, 100,000 polls.
    expect(lineThatFits(100, 2, 5)).toBe(100_000);
    expect(lineThatFits(250, 2, 5)).toBe(40_000);
  });
});

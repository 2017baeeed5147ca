import { describe, expect, it } from "vitest";
import { readOptions } from "../../bench/options.mjs";
import { median, percentile } from "../../bench/stats.mjs";

describe("the bench's figures", () => {
  it("reports p50 and p99 by nearest rank, so a single slow request shows at p99", () => {
    const latencies = [...Array.from({ length: 99 }, () => 10), 900];
    expect(percentile(latencies, 50)).toBe(10);
    expect(percentile(latencies, 99)).toBe(10);
    expect(percentile([...latencies, 900], 99)).toBe(900);
    expect(percentile([], 50)).toBeNaN();
  });

  it("takes the median of the rounds' ratios, whatever order they came in", () => {
    expect(median([0.4, 0.1, 0.3])).toBe(0.3);
    expect(median([0.4, 0.1, 0.3, 0.2])).toBeCloseTo(0.25);
  });
});

describe("the bench's knobs", () => {
  it("defaults to a drop: 1,000 shoppers for 200 units, both measurements, logged", () => {
    expect(readOptions([], {})).toMatchObject({ shoppers: 1000, units: 200, ratio: true, rush: true, log: true });
  });

  it("runs the rush with every shopper at once and the ratio with 50 in flight, unless told", () => {
    expect(readOptions([], {})).toMatchObject({ rushConcurrency: 1000, ratioConcurrency: 50, requests: 10_000 });
    expect(readOptions(["--shoppers", "300"], {})).toMatchObject({ rushConcurrency: 300, ratioConcurrency: 50 });
    expect(readOptions(["--concurrency", "20"], {})).toMatchObject({ rushConcurrency: 20, ratioConcurrency: 20 });
  });

  it("takes a flag over the environment variable", () => {
    const options = readOptions(["--shoppers", "200", "--only", "rush"], {
      BENCH_SHOPPERS: "50",
      BENCH_UNITS: "40",
      BENCH_CONCURRENCY: "8",
    });
    expect(options).toMatchObject({ shoppers: 200, units: 40, concurrency: 8, ratio: false, rush: true });
  });

  it("runs the store as npm start does, one worker per core, unless told how many", async () => {
    const { availableParallelism } = await import("node:os");
    expect(readOptions([], {})).toMatchObject({ workers: availableParallelism() });
    expect(readOptions([], { BENCH_WORKERS: "1" })).toMatchObject({ workers: 1 });
    expect(readOptions(["--workers", "3"], { BENCH_WORKERS: "1" })).toMatchObject({ workers: 3 });
    expect(() => readOptions(["--workers", "0"], {})).toThrow(/--workers \(BENCH_WORKERS\)/);
  });

  it("refuses a count that is not a whole number above zero", () => {
    expect(() => readOptions(["--units", "0"], {})).toThrow(/--units/);
    expect(() => readOptions([], { BENCH_SHOPPERS: "lots" })).toThrow(/BENCH_SHOPPERS/);
    expect(() => readOptions(["--only", "both"], {})).toThrow(/--only/);
  });
});

import cluster from "node:cluster";
import os from "node:os";
import { describe, expect, it } from "vitest";
import { restartDelayMs, restartPolicy, schedulingPolicy, workerCount } from "#server/cluster";

describe("WEB_CONCURRENCY", () => {
  it("defaults to one worker per core the process may use", () => {
    expect(workerCount({})).toBe(os.availableParallelism());
    expect(workerCount({ WEB_CONCURRENCY: " " })).toBe(os.availableParallelism());
  });

  it("sets the number of workers; 1 is a single process", () => {
    expect(workerCount({ WEB_CONCURRENCY: "1" })).toBe(1);
    expect(workerCount({ WEB_CONCURRENCY: "4" })).toBe(4);
  });

  it("refuses what is not a whole number of workers, naming the variable", () => {
    for (const value of ["0", "-2", "1.5", "many"]) {
      expect(() => workerCount({ WEB_CONCURRENCY: value })).toThrow(
        `WEB_CONCURRENCY must be a whole number of workers (1 or more), not "${value}".`,
      );
    }
  });
});

describe("replacing workers that keep dying", () => {
  it("replaces a one-off crash at once, then waits longer and longer, never more than 30 s", () => {
    const delays = Array.from({ length: 10 }, (_, i) => restartDelayMs(i + 1));
    expect(delays[0]).toBe(0);
    for (let i = 2; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(delays[1]).toBeGreaterThan(0);
    expect(Math.max(...delays)).toBe(30_000);
    expect(restartDelayMs(1000)).toBe(30_000);
  });

  it("never leaves the store with no worker: the last one alive to die is replaced at once, however long the loop", () => {
    let clock = 0;
    const delayFor = restartPolicy(() => clock);
    // Two workers dying a second after their start, again and again: the one left alive holds the port.
    const delays: number[] = [];
    for (let round = 0; round < 8; round++) {
      clock += 1_000;
      delays.push(delayFor(1_000, 1), delayFor(1_000, 0));
    }
    expect(delays[0]).toBe(0);
    expect(delays.filter((_, i) => i % 2 === 0).at(-1)).toBe(30_000);
    expect(delays.filter((_, i) => i % 2 === 1)).toEqual(Array(8).fill(0));
  });

  it("replaces a worker at once after a healthy life, and after a quiet minute counts a young death as the first again", () => {
    let clock = 0;
    const delayFor = restartPolicy(() => clock);
    for (let i = 0; i < 5; i++) delayFor(500, 1);
    expect(delayFor(500, 1)).toBeGreaterThan(0);
    expect(delayFor(60_000, 1)).toBe(0);
    for (let i = 0; i < 5; i++) delayFor(500, 1);
    clock += 61_000;
    expect(delayFor(500, 1)).toBe(0);
    expect(delayFor(500, 1)).toBe(500);
  });
});

describe("sharing the port", () => {
  it("lets each worker accept its own connections unless NODE_CLUSTER_SCHED_POLICY asks for round-robin", () => {
    expect(schedulingPolicy({})).toBe(cluster.SCHED_NONE);
    expect(schedulingPolicy({ NODE_CLUSTER_SCHED_POLICY: "none" })).toBe(cluster.SCHED_NONE);
    expect(schedulingPolicy({ NODE_CLUSTER_SCHED_POLICY: "rr" })).toBe(cluster.SCHED_RR);
  });
});

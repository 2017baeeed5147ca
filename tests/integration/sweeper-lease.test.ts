import { describe, expect, it } from "vitest";
import { RateLimiter } from "../../server/services/rate-limit";
import { resignSweeper, sweep, SWEEP_EVERY_MS } from "../../server/services/sweeper";
import { twoWorkers } from "../setup/context";

// Two workers (or machines) on one database file, each with its own connection and identity.
const { workerA, workerB } = twoWorkers();
const advanceBoth = (ms: number) => {
  workerA.clock.advance(ms);
  workerB.clock.advance(ms);
};

// A chore anyone can see done: an ended rate-limit window is deleted by the sweep that runs.
const limiter = new RateLimiter("lease-probe", 1, 1_000);
const leaveChore = () => limiter.take(workerA, `probe-${workerA.clock.now().getTime()}`, () => "");
const choresLeft = async () =>
  (await workerA.db.selectFrom("rateLimits").select("key").where("bucket", "=", "lease-probe").execute()).length;

describe("the sweeper lease", () => {
  it("lets one worker sweep; the other takes over once the leader stops renewing", async () => {
    await leaveChore();
    advanceBoth(SWEEP_EVERY_MS);
    expect(await sweep(workerA, "worker-a")).toBe(true);
    expect(await choresLeft()).toBe(0);

    // Worker B's sweeps, every interval, do nothing while A is alive and renewing.
    for (let i = 0; i < 3; i++) {
      await leaveChore();
      advanceBoth(SWEEP_EVERY_MS);
      expect(await sweep(workerB, "worker-b")).toBe(false);
      expect(await choresLeft()).toBe(1);
      expect(await sweep(workerA, "worker-a")).toBe(true);
      expect(await choresLeft()).toBe(0);
    }

    // A dies (no more renewals). Until its lease runs out, nobody sweeps; then B does, and keeps it.
    await leaveChore();
    advanceBoth(SWEEP_EVERY_MS);
    expect(await sweep(workerB, "worker-b")).toBe(false);
    advanceBoth(SWEEP_EVERY_MS);
    expect(await sweep(workerB, "worker-b")).toBe(false);
    expect(await choresLeft()).toBe(1);
    advanceBoth(SWEEP_EVERY_MS);
    expect(await sweep(workerB, "worker-b")).toBe(true);
    expect(await choresLeft()).toBe(0);
    // A restarted worker under the old name is a newcomer now: B keeps the lease.
    expect(await sweep(workerA, "worker-a")).toBe(false);
  });

  it("passes at once to another worker when the leader stops gracefully", async () => {
    advanceBoth(SWEEP_EVERY_MS);
    expect(await sweep(workerB, "worker-b")).toBe(true);
    await resignSweeper(workerB, "worker-b");
    await leaveChore();
    advanceBoth(2_000);
    expect(await sweep(workerA, "worker-a")).toBe(true);
    expect(await choresLeft()).toBe(0);
  });
});

import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "#db/client";
import { RateLimiter } from "#server/services/security/rate-limit";
import { resignSweeper, sweep, SWEEP_EVERY_MS } from "#server/services/jobs/sweeper";
import { manualClock, TEST_ENGINE, twoWorkers, type TestContext } from "../setup/context";
import { createPostgresTestContext } from "../setup/postgres-context";
import { describeOnPostgres } from "../setup/postgres-db";

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
  // SQLite's lease: on PostgreSQL leadership is a lock on the leader's connection, which lives
  // on whatever the clock says (below).
  it.skipIf(TEST_ENGINE === "postgres")("lets one worker sweep; the other takes over once the leader stops renewing", async () => {
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

describeOnPostgres("the sweeper's leadership on PostgreSQL (an advisory lock on a connection of its own)", () => {
  const shared = createPostgresTestContext();
  let a: TestContext;
  let b: TestContext;
  const probe = new RateLimiter("leader-probe", 1, 1_000);
  const leave = () => probe.take(a, `probe-${a.clock.now().getTime()}`, () => "");
  const left = async () => (await a.db.selectFrom("rateLimits").select("key").where("bucket", "=", "leader-probe").execute()).length;
  const advance = (ms: number) => {
    a.clock.advance(ms);
    b.clock.advance(ms);
  };
  /** The backends holding an advisory lock in this database (the leader's dedicated connection). */
  const lockHolders = async () =>
    (
      await sql<{ pid: number }>`SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`.execute(a.db)
    ).rows.map((row) => row.pid);

  beforeAll(() => {
    // Two processes: each its own pool, its own clock and its own leadership connection.
    a = shared.ctx;
    b = { ...a, db: openDatabase(a.config.database), clock: manualClock(a.clock.now()) };
  });
  afterAll(async () => {
    await resignSweeper(a, "pg-a");
    await resignSweeper(b, "pg-b");
    await b.db.destroy();
  });

  it("lets one process lead, whatever the clock says, and passes it on when the leader's connection ends", async () => {
    await leave();
    advance(SWEEP_EVERY_MS);
    expect(await sweep(a, "pg-a")).toBe(true);
    expect(await left()).toBe(0);
    // Only one leader, however long B waits: no lease runs out while A's connection lives.
    for (let i = 0; i < 3; i++) {
      await leave();
      advance(10 * SWEEP_EVERY_MS);
      expect(await sweep(b, "pg-b")).toBe(false);
      expect(await left()).toBe(1);
      expect(await sweep(a, "pg-a")).toBe(true);
      expect(await left()).toBe(0);
    }
    const holders = await lockHolders();
    expect(holders).toHaveLength(1);

    // The leader's connection ends (its process was killed, or the server dropped it): B leads at its next try.
    await sql`SELECT pg_terminate_backend(${holders[0]!}::int, 5000)`.execute(a.db);
    await leave();
    advance(1_000);
    expect(await sweep(b, "pg-b")).toBe(true);
    expect(await left()).toBe(0);
    // A, back on a new connection, does not take it back.
    expect(await sweep(a, "pg-a")).toBe(false);
    expect(await sweep(b, "pg-b")).toBe(true);
    const now = await lockHolders();
    expect(now).toHaveLength(1);
    expect(now[0]).not.toBe(holders[0]);
  });

  it("passes at once to another process when the leader resigns", async () => {
    expect(await sweep(b, "pg-b")).toBe(true);
    expect(await sweep(a, "pg-a")).toBe(false);
    await resignSweeper(b, "pg-b");
    expect(await lockHolders()).toHaveLength(0);
    expect(await sweep(a, "pg-a")).toBe(true);
  });
});

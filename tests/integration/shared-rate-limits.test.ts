import { describe, expect, it } from "vitest";
import { TooMany } from "#server/errors";
import { RateLimiter } from "#server/services/security/rate-limit";
import { sweep } from "#server/services/jobs/sweeper";
import { ensureAdmin, login } from "#server/services/accounts/users";
import { twoWorkers } from "../setup/context";

// Two workers of `npm start`: one database file, two connections, each with its own memory.
const { workerA, workerB } = twoWorkers();
const bothAt = (iso: string) => {
  workerA.clock.set(iso);
  workerB.clock.set(iso);
};

describe("rate limits shared by every worker", () => {
  it("counts failed sign-ins to one account on any worker: the sixth is refused on either", async () => {
    bothAt("2026-06-01T12:00:00.000Z");
    await ensureAdmin(workerA, { username: "boss", password: "right-password", email: "boss@example.com" });
    const wrong = { username: "boss", password: "wrong-password" };
    for (const [i, worker] of [workerA, workerB, workerA, workerB, workerA].entries()) {
      await expect(login(worker, wrong, `198.51.100.${i}`), `attempt ${i + 1}`).rejects.toThrow("Invalid username or password");
    }
    for (const worker of [workerA, workerB]) {
      const refused = await login(worker, { username: "boss", password: "right-password" }, "198.51.100.9").catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(TooMany);
      expect((refused as TooMany).message).toBe("Too many sign-in attempts. Please wait 15 minutes and try again.");
      expect((refused as TooMany).retryAfterSeconds).toBe(15 * 60);
    }
    // The window ends for every worker at once, and the owner gets in.
    bothAt("2026-06-01T12:15:00.000Z");
    await expect(login(workerB, { username: "boss", password: "right-password" }, "198.51.100.9")).resolves.toMatchObject({
      user: { username: "boss" },
    });
  });

  it("lets exactly the limit through when workers race for the last attempts", async () => {
    bothAt("2026-06-02T12:00:00.000Z");
    const limiter = new RateLimiter("test-race", 7, 60_000);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => limiter.take(i % 2 ? workerA : workerB, "203.0.113.5", (m) => `wait ${m}`)),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(7);
    const refusals = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason as TooMany] : []));
    expect(refusals.every((r) => r instanceof TooMany && r.message === "wait 1" && r.retryAfterSeconds === 60)).toBe(true);
  });

  it("forgets ended windows: the sweeper deletes their rows", async () => {
    bothAt("2026-06-03T12:00:00.000Z");
    const limiter = new RateLimiter("test-sweep", 1, 60_000);
    await limiter.take(workerA, "203.0.113.6", (m) => `wait ${m}`);
    const rows = () => workerB.db.selectFrom("rateLimits").selectAll().where("bucket", "=", "test-sweep").execute();
    expect(await rows()).toHaveLength(1);
    bothAt("2026-06-03T12:01:00.000Z");
    await sweep(workerB);
    expect(await rows()).toEqual([]);
    await expect(limiter.take(workerB, "203.0.113.6", (m) => `wait ${m}`)).resolves.toBeUndefined();
  });
});

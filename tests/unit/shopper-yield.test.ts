// The fulfilment job's manners on drop day: it waits while shoppers keep the event loop busy, never
// past an order's deadline, and once it found the loop idle it works orders back to back briefly.
import { describe, expect, it } from "vitest";
import { shopperYield, TRUST_IDLE_MS } from "#server/services/fulfilment/shopper-yield";

function fakeLoop(busySamples: boolean[]) {
  const clock = { wall: Date.parse("2026-11-30T12:00:00Z"), mono: 1_000 };
  const log: string[] = [];
  const take = shopperYield({
    maxDeferMs: 1_000,
    now: () => clock.wall,
    monotonic: () => clock.mono,
    busy: async () => {
      const busy = busySamples.shift() ?? false;
      log.push(busy ? "busy" : "idle");
      clock.wall += 10;
      clock.mono += 10;
      return busy;
    },
    pause: async (ms) => {
      log.push(`pause ${ms}`);
      clock.wall += ms;
      clock.mono += ms;
    },
  });
  return { clock, log, take, paidNow: () => new Date(clock.wall).toISOString() };
}

describe("shopperYield", () => {
  it("waits while the loop is busy and goes once a sample finds it idle", async () => {
    const loop = fakeLoop([true, true, false]);
    await loop.take(loop.paidNow());
    expect(loop.log).toEqual(["busy", "pause 100", "busy", "pause 100", "idle"]);
  });

  it("never waits past the order's deadline, however busy the loop stays", async () => {
    const loop = fakeLoop(Array(100).fill(true));
    const paidAt = loop.paidNow();
    await loop.take(paidAt);
    expect(loop.clock.wall - Date.parse(paidAt)).toBeGreaterThanOrEqual(1_000);
    expect(loop.clock.wall - Date.parse(paidAt)).toBeLessThan(1_200);
    expect(loop.log.filter((step) => step === "busy")).toHaveLength(10);
  });

  it("after an idle sample, takes the next orders without sampling until the window closes", async () => {
    const loop = fakeLoop([false, true, false]);
    await loop.take(loop.paidNow());
    loop.clock.mono += TRUST_IDLE_MS - 1;
    await loop.take(loop.paidNow());
    expect(loop.log).toEqual(["idle"]);
    loop.clock.mono += 1;
    await loop.take(loop.paidNow());
    expect(loop.log).toEqual(["idle", "busy", "pause 100", "idle"]);
  });
});

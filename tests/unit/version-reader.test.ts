import { describe, expect, it } from "vitest";
import { everyFew, pageVersionMoved } from "#server/http/cache/version-reader";

describe("the page-version reader", () => {
  it("reads the counter at most every few ms, and at once after a move is announced", async () => {
    let clock = 0;
    let reads = 0;
    let counter = 1;
    const current = everyFew(
      async () => (reads++, counter),
      250,
      () => clock,
    );
    expect(await current()).toBe(1);
    counter = 2;
    clock += 100;
    // Recent enough: the number read before, no query.
    expect(current()).toBe(1);
    expect(reads).toBe(1);
    pageVersionMoved();
    expect(await current()).toBe(2);
    expect(reads).toBe(2);
    expect(current()).toBe(2);
    expect(reads).toBe(2);
  });

  it("does not trust a read that began before the move was announced", async () => {
    let counter = 1;
    const pending: (() => void)[] = [];
    const current = everyFew(
      () =>
        new Promise<number>((resolve) => {
          const seen = counter;
          pending.push(() => resolve(seen));
        }),
      60_000,
    );
    const first = current() as Promise<number>;
    counter = 2;
    pageVersionMoved();
    const second = current() as Promise<number>;
    expect(second).not.toBe(first);
    expect(pending).toHaveLength(2);
    pending[0]!();
    expect(await first).toBe(1);
    pending[1]!();
    // The read made after the announcement is the one kept.
    expect(await second).toBe(2);
    expect(current()).toBe(2);
  });
});

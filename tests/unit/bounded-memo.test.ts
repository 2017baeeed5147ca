import { describe, expect, it } from "vitest";
import { addBounded, boundedMemo, keepBounded } from "#server/bounded-memo";

describe("a bounded memo", () => {
  it("works a key out once, and again only after it was let go as the oldest", () => {
    const asked: string[] = [];
    const memo = boundedMemo(
      (key) => {
        asked.push(key);
        return key.toUpperCase();
      },
      { entries: 2, maxKeyLength: 10 },
    );
    expect([memo("a"), memo("a"), memo("b"), memo("a")]).toEqual(["A", "A", "B", "A"]);
    expect(asked).toEqual(["a", "b"]);
    expect(memo("c")).toBe("C");
    expect(memo.size).toBe(2);
    // "a" was the oldest when "c" came: worked out again.
    expect(memo("a")).toBe("A");
    expect(asked).toEqual(["a", "b", "c", "a"]);
  });

  it("keeps an answer that is null or false, and never keeps a key longer than the bound", () => {
    let calls = 0;
    const memo = boundedMemo(
      (key) => {
        calls++;
        return key === "no" ? null : false;
      },
      { entries: 10, maxKeyLength: 4 },
    );
    memo("no");
    memo("no");
    memo("nope");
    memo("nope");
    expect(calls).toBe(2);
    const long = "x".repeat(5);
    memo(long);
    memo(long);
    expect(calls).toBe(4);
    expect(memo.size).toBe(2);
  });

  it("bounds a map and a set a caller keeps, replacing a key without letting another go", () => {
    const map = new Map<string, number>();
    keepBounded(map, "a", 1, 2);
    keepBounded(map, "b", 2, 2);
    keepBounded(map, "b", 3, 2);
    expect([...map]).toEqual([
      ["a", 1],
      ["b", 3],
    ]);
    keepBounded(map, "c", 4, 2);
    expect([...map.keys()]).toEqual(["b", "c"]);
    const set = new Set<string>();
    for (const key of ["a", "b", "a", "c"]) addBounded(set, key, 2);
    expect([...set]).toEqual(["b", "c"]);
  });
});

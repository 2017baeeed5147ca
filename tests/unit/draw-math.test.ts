import { describe, expect, it } from "vitest";
import {
  chainOf,
  commitmentOf,
  drawKey,
  drawOrder,
  emailHashOf,
  identityOf,
  runDraw,
  verifyProof,
  type DrawProof,
} from "#server/services/drop/draw-math";

// Issue 26: the expected values were computed apart from this code (Python's hashlib and hmac),
// from the formulas in the issue, so the test pins the published arithmetic, not this module's.
const SEED = Buffer.from(Array.from({ length: 32 }, (_, i) => i)).toString("hex");
const COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";
const DRAW_ID = 7;
const EMAILS = ["ann@example.com", "bob@example.com", "cy@example.com", "di@example.com", "ed@example.com"];
const entries = (sizes: string[]) => EMAILS.map((email, i) => ({ n: i + 1, emailHash: emailHashOf(DRAW_ID, email), size: sizes[i]! }));

describe("the draw's arithmetic", () => {
  it("commits to the seed's raw bytes and hashes the folded e-mail with the draw id", () => {
    expect(commitmentOf(SEED)).toBe(COMMITMENT);
    expect(emailHashOf(DRAW_ID, "ann@example.com")).toBe("b5d78ffdff916d455357246011c2fc210e3ad5d4058d0deaa14e304e8102924a");
    // One person however they spell their address: the per-customer limit's folding.
    expect(emailHashOf(DRAW_ID, "A.n.N+draw@GoogleMail.com")).toBe(emailHashOf(DRAW_ID, "ann@gmail.com"));
    expect(identityOf("Ann+x@Example.com")).toBe("ann@example.com");
  });

  it("chains the entries and orders them by HMAC(key, n): a fixed seed gives a known order", () => {
    const list = entries(["", "", "", "", ""]);
    const chain = chainOf(COMMITMENT, list);
    expect(chain).toBe("3cbe44e2f659b0f3007d8cfa4e1cb44733e44f23746de820d0197611dadffa66");
    expect(drawOrder(drawKey(SEED, chain, "round-12345"), [1, 2, 3, 4, 5])).toEqual([3, 2, 1, 5, 4]);
    // The chain does not depend on the order the entries are listed in, only on n.
    expect(chainOf(COMMITMENT, [...list].reverse())).toBe(chain);
  });

  it("gives each size's units down the drawn order", () => {
    const list = entries(["S", "M", "S", "M", "S"]);
    const run = (units: Record<string, number>) => runDraw({ seedHex: SEED, commitment: COMMITMENT, beacon: "", entries: list, units });
    expect(run({ S: 1, M: 1 })).toEqual({
      chain: "0e7b2dd148755bb802f42ba5672432e3e9f4302cb6c6449514c066c754392a0a",
      order: [2, 4, 3, 5, 1],
      winners: [2, 3],
    });
    expect(run({ S: 2, M: 1 }).winners).toEqual([2, 3, 5]);
    expect(run({ S: 9, M: 0 }).winners).toEqual([3, 5, 1]);
  });
});

describe("verifying a proof", () => {
  const proof = (): DrawProof => {
    const list = entries(["", "", "", "", ""]);
    const drawn = runDraw({ seedHex: SEED, commitment: COMMITMENT, beacon: "round-12345", entries: list, units: { "": 2 } });
    return { commitment: COMMITMENT, seed: SEED, beacon: "round-12345", entries: list, units: { "": 2 }, ...drawn };
  };

  it("holds for the proof the draw gives", () => {
    expect(proof().winners).toEqual([3, 2]);
    expect(verifyProof(proof())).toEqual({ ok: true, problems: [] });
  });

  it("breaks when an entry, the seed, the beacon or the winners change", () => {
    const changedEntry = proof();
    changedEntry.entries[1] = { ...changedEntry.entries[1]!, emailHash: emailHashOf(DRAW_ID, "mallory@example.com") };
    expect(verifyProof(changedEntry).problems).toContain(
      "The entries do not give the published chain: an entry was changed, added or removed.",
    );

    const changedSeed = { ...proof(), seed: SEED.replace(/^00/, "ff") };
    expect(verifyProof(changedSeed).problems).toContain("The seed does not match the commitment published before entries opened.");

    expect(verifyProof({ ...proof(), beacon: "round-12346" }).ok).toBe(false);
    expect(verifyProof({ ...proof(), winners: [3, 1] }).problems).toEqual([
      "The published winners are not the first entrants of each size in the drawn order.",
    ]);
    expect(verifyProof({ ...proof(), seed: "not hex" })).toEqual({ ok: false, problems: ["The seed is not 64 hex characters."] });
  });
});

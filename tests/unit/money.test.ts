import { describe, expect, it } from "vitest";
import {
  addDollars,
  centsAfterPercentOff,
  centsFromDecimalText,
  formatDollarAmount,
  formatUsd,
  formatUsdCents,
  isWholeCents,
  roundCents,
  toCents,
  toDollars,
} from "#server/contracts/money";

describe("formatUsd", () => {
  it("shows dollars with a sign, two decimals and thousands grouped", () => {
    expect(formatUsd(36.8)).toBe("$36.80");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(1036.8)).toBe("$1,036.80");
    expect(formatUsd(1234567.891)).toBe("$1,234,567.89");
  });

  it("rounds to the cent, half away from zero", () => {
    expect(formatUsd(0.125)).toBe("$0.13");
    expect(formatUsd(406.7 - 6.7)).toBe("$400.00");
  });

  it("puts the minus before the sign", () => {
    expect(formatUsd(-12.5)).toBe("-$12.50");
  });
});

describe("roundCents", () => {
  it("rounds half a cent away from zero, on both sides of zero", () => {
    expect(roundCents(12.5)).toBe(13);
    expect(roundCents(12.4999)).toBe(12);
    expect(roundCents(-12.5)).toBe(-13);
    expect(roundCents(-12.4999)).toBe(-12);
  });

  it("never answers a negative zero", () => {
    expect(Object.is(roundCents(-0.4), 0)).toBe(true);
    expect(Object.is(roundCents(0), 0)).toBe(true);
  });
});

describe("cents ⇄ dollars", () => {
  it("turns cents into dollars, rounding a fraction of a cent first", () => {
    expect(toDollars(1999)).toBe(19.99);
    expect(toDollars(0)).toBe(0);
    expect(toDollars(1234.5)).toBe(12.35);
    expect(toDollars(-250)).toBe(-2.5);
  });

  it("turns dollars into whole cents without float drift", () => {
    expect(toCents(19.99)).toBe(1999);
    expect(toCents(0.29)).toBe(29); // 0.29 × 100 is 28.999999999999996
    expect(toCents(4.35)).toBe(435); // 434.99999999999994
    expect(toCents(0.125)).toBe(13);
    expect(toCents(-0.125)).toBe(-13);
  });

  it("keeps large amounts exact", () => {
    expect(toCents(100_000)).toBe(10_000_000);
    expect(toCents(92_233_720_368.54)).toBe(9_223_372_036_854);
    expect(toDollars(9_007_199_254_740_991)).toBe(90_071_992_547_409.91);
    expect(formatUsd(toDollars(123_456_789_012))).toBe("$1,234,567,890.12");
  });

  it("round-trips every cent of a price", () => {
    for (let cents = 0; cents <= 100_00; cents += 7) expect(toCents(toDollars(cents))).toBe(cents);
  });
});

describe("addDollars", () => {
  it("sums to the cent", () => {
    expect(addDollars(0.1, 0.2)).toBe(0.3);
    expect(addDollars(19.99, 5.01, 1.6)).toBe(26.6);
    expect(addDollars()).toBe(0);
  });
});

describe("centsAfterPercentOff", () => {
  it("takes the percentage off and rounds once", () => {
    expect(centsAfterPercentOff(1999, 0)).toBe(1999);
    expect(centsAfterPercentOff(1999, 15)).toBe(1699); // 1699.15
    expect(centsAfterPercentOff(1999, 50)).toBe(1000); // 999.5, half up
    expect(centsAfterPercentOff(1999, 100)).toBe(0);
  });
});

describe("isWholeCents", () => {
  it("takes two decimals and refuses a third", () => {
    expect(isWholeCents(12)).toBe(true);
    expect(isWholeCents(0.29)).toBe(true);
    expect(isWholeCents(12.34)).toBe(true);
    expect(isWholeCents(12.345)).toBe(false);
    expect(isWholeCents(0.001)).toBe(false);
  });
});

describe("centsFromDecimalText", () => {
  it("reads a vendor's amount from its digits", () => {
    expect(centsFromDecimalText("7.45")).toBe(745);
    expect(centsFromDecimalText(" 12 ")).toBe(1200);
    expect(centsFromDecimalText("8.5")).toBe(850);
    expect(centsFromDecimalText("0.125")).toBe(13);
    expect(centsFromDecimalText("1.0049999")).toBe(100);
    expect(centsFromDecimalText("123456789.99")).toBe(12_345_678_999);
  });

  it("answers null for what is not a plain non-negative decimal", () => {
    for (const text of ["", "-1.00", "1,000.00", "$5", "1.", ".5", "abc"]) expect(centsFromDecimalText(text)).toBeNull();
  });
});

describe("formatting", () => {
  it("writes a bare two-decimal amount for CSV cells and vendor fields", () => {
    expect(formatDollarAmount(1036.8)).toBe("1036.80");
    expect(formatDollarAmount(0)).toBe("0.00");
    expect(formatDollarAmount(-2.5)).toBe("-2.50");
  });

  it("formats cents as the e-mails show them", () => {
    expect(formatUsdCents(103680)).toBe("$1,036.80");
    expect(formatUsdCents(-1250)).toBe("-$12.50");
  });
});

import { describe, expect, it } from "vitest";
import { formatUsd } from "../../server/contracts/money";

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

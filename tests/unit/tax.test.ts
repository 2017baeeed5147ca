import { describe, expect, it } from "vitest";
import { effectiveRate, quoteTax, US_STATE_TAX_RULES_2025 } from "#server/integrations/tax";

const item = (unitCents: number, quantity = 1) => ({ unitCents, quantity });
const us = (state: string, lines: { unitCents: number; quantity: number }[], shippingCents = 0) =>
  quoteTax({ country: "US", state, lines, shippingCents });

describe("quoteTax: the state's rate where clothing is taxable", () => {
  it("charges California's rate on the goods, not on separately stated shipping", () => {
    expect(us("CA", [item(10_000)], 595)).toEqual({ taxCents: 725, taxRate: 0.0725, taxLabel: "California Sales Tax" });
  });

  it("keeps three-decimal rates exact and rounds half up once, on the whole order", () => {
    // Missouri 4.225 %: 3 × 33.33 = 99.99 → 4.2245775 → 4.22; per line it would be 3 × 1.41 = 4.23.
    expect(us("MO", [item(3_333, 3)]).taxCents).toBe(422);
    // Texas 6.25 % of 0.08 = 0.005 → rounds up to a cent.
    expect(us("TX", [item(8)]).taxCents).toBe(1);
  });

  it("charges nothing in states without sales tax, abroad, or for an unknown state", () => {
    for (const state of ["AK", "DE", "MT", "NH", "OR"]) expect(us(state, [item(10_000)], 595)).toMatchObject({ taxRate: 0, taxCents: 0 });
    expect(us("OR", [item(10_000)]).taxLabel).toBe("Oregon Sales Tax");
    expect(quoteTax({ country: "CA", state: "", lines: [item(10_000)] })).toEqual({ taxCents: 0, taxRate: 0, taxLabel: "Sales Tax" });
    expect(us("ZZ", [item(10_000)])).toEqual({ taxCents: 0, taxRate: 0, taxLabel: "Sales Tax" });
  });
});

describe("quoteTax: clothing exemptions", () => {
  it("exempts clothing in PA, NJ, MN and VT, shipping included", () => {
    for (const state of ["PA", "NJ", "MN", "VT"])
      expect(us(state, [item(3_000, 2), item(25_000)], 895)).toMatchObject({ taxCents: 0, taxRate: 0 });
  });

  it("NY: an item under $110 is exempt from the 4 % state portion, one at $110 or more pays it", () => {
    expect(us("NY", [item(10_000)])).toEqual({ taxCents: 0, taxRate: 0, taxLabel: "New York Sales Tax" });
    expect(us("NY", [item(12_000)])).toEqual({ taxCents: 480, taxRate: 0.04, taxLabel: "New York Sales Tax" });
    expect(us("NY", [item(11_000)]).taxCents).toBe(440); // "less than $110": $110 itself is taxed
    expect(us("NY", [item(10_999)]).taxCents).toBe(0);
  });

  it("NY: the threshold is the unit price, so a line of two $100 shirts stays exempt", () => {
    expect(us("NY", [item(10_000, 2)]).taxCents).toBe(0);
    // One $120 jacket beside them: 4 % of 120 = 4.80, effective 4.80 / 320 = 1.5 %.
    expect(us("NY", [item(10_000, 2), item(12_000)])).toMatchObject({ taxCents: 480, taxRate: 0.015 });
  });

  it("MA: the first $175 of each item is exempt, so a $200 item is taxed on $25", () => {
    // 6.25 % of 25 = 1.5625 → 1.56; effective 1.56 / 200 = 0.78 %.
    expect(us("MA", [item(20_000)])).toEqual({ taxCents: 156, taxRate: 0.0078, taxLabel: "Massachusetts Sales Tax" });
    expect(us("MA", [item(20_000, 2)]).taxCents).toBe(313); // 6.25 % of 2 × 25 = 3.125 → 3.13
    expect(us("MA", [item(17_500)]).taxCents).toBe(0);
  });

  it("RI: the first $250 of each item is exempt", () => {
    expect(us("RI", [item(24_000, 3)]).taxCents).toBe(0);
    expect(us("RI", [item(30_000)]).taxCents).toBe(350); // 7 % of 50
  });
});

describe("quoteTax: shipping", () => {
  it("taxes shipping where the state taxes delivery of taxable goods, not where it does not", () => {
    // Texas 6.25 % of 35 + 5.95 = 2.559375 → 2.56; Colorado 2.9 % of 35 only = 1.015 → 1.02.
    expect(us("TX", [item(3_500)], 595).taxCents).toBe(256);
    expect(us("CO", [item(3_500)], 595).taxCents).toBe(102);
  });

  it("taxes only the share of shipping that carries taxable goods", () => {
    // NY: the $120 jacket is 120/160 of the parcel: 4 % of (120 + 6.70 × 0.75) = 5.001 → 5.00.
    expect(us("NY", [item(12_000), item(4_000)], 670)).toMatchObject({ taxCents: 500, taxRate: 0.03125 });
    // Only exempt shirts: their shipping is exempt too.
    expect(us("NY", [item(4_000)], 670).taxCents).toBe(0);
    // RI: $50 of a $300 item is taxable, so 1/6 of the 5.95: 7 % of (50 + 0.991666) = 3.5694 → 3.57.
    expect(us("RI", [item(30_000)], 595).taxCents).toBe(357);
  });

  it("only where the sources agree: the conditional states leave shipping untaxed", () => {
    for (const state of ["CA", "FL", "IL", "MI", "MO", "KY", "DC", "MA"]) expect(US_STATE_TAX_RULES_2025[state]?.taxesShipping).toBe(false);
    for (const state of ["NY", "TX", "PA", "NJ", "WA", "RI"]) expect(US_STATE_TAX_RULES_2025[state]?.taxesShipping).toBe(true);
  });
});

describe("effectiveRate", () => {
  it("is the tax over the goods subtotal, to six decimals, 0 without goods", () => {
    expect(effectiveRate(219, 3_500)).toBe(0.062571); // 0.0625714…
    expect(effectiveRate(256, 3_500)).toBe(0.073143); // shipping taxed: above the nominal 6.25 %
    expect(effectiveRate(725, 10_000)).toBe(0.0725);
    expect(effectiveRate(0, 0)).toBe(0);
    expect(effectiveRate(0, 10_000)).toBe(0);
    // A cent on $50,000 is 0.0000002: still above 0, so the tax line still shows it.
    expect(effectiveRate(1, 5_000_000)).toBe(0.000001);
  });

  it("gives the amount back to the cent", () => {
    const texas = us("TX", [item(4_999, 7)], 1_095);
    expect(Math.round(texas.taxRate * 4_999 * 7)).toBe(texas.taxCents);
  });

  it("covers every state and DC", () => {
    expect(Object.keys(US_STATE_TAX_RULES_2025)).toHaveLength(51);
  });
});

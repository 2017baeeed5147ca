import { describe, expect, it } from "vitest";
import { quoteTax } from "../../server/integrations/tax";

describe("quoteTax", () => {
  it("charges the destination state's rate on US orders", () => {
    expect(quoteTax({ country: "US", state: "CA", subtotalCents: 10_000 })).toEqual({
      taxRate: 0.0725,
      taxCents: 725,
      taxLabel: "California Sales Tax",
    });
  });

  it("keeps three-decimal rates exact and rounds half up once", () => {
    expect(quoteTax({ country: "us", state: "mn", subtotalCents: 4_999 }).taxCents).toBe(344); // 343.68
    expect(quoteTax({ country: "US", state: "NY", subtotalCents: 12_345 }).taxCents).toBe(494); // 493.8
  });

  it("charges nothing in states without sales tax, abroad, or for an unknown state", () => {
    expect(quoteTax({ country: "US", state: "OR", subtotalCents: 10_000 })).toMatchObject({ taxRate: 0, taxCents: 0 });
    expect(quoteTax({ country: "CA", state: "", subtotalCents: 10_000 })).toMatchObject({ taxRate: 0, taxCents: 0 });
    expect(quoteTax({ country: "US", state: "ZZ", subtotalCents: 10_000 })).toMatchObject({ taxRate: 0, taxCents: 0 });
  });
});

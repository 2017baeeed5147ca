import { describe, expect, it } from "vitest";
import { localRates, methodDescriptionOf } from "#server/integrations/shipping/local-rates";

describe("localRates", () => {
  it("offers ground_saver first in the contiguous US, priced by weight band", () => {
    const rates = localRates({ country: "US", state: "NY", zipCode: "10001" }, 1);
    expect(rates[0]).toEqual({
      key: "usps-ground_saver",
      carrier: "USPS",
      method: "ground_saver",
      costCents: 595,
      description: "USPS Ground Advantage",
      estimatedDays: 5,
    });
    expect(localRates({ country: "US", state: "NY", zipCode: "10001" }, 2.2)[0]!.costCents).toBe(595 + 2 * 75);
  });

  it("ships abroad without ground options and drops the light-parcel service over 4 lb", () => {
    const light = localRates({ country: "DE", zipCode: "10115" }, 1).map((r) => r.method);
    expect(light).toEqual(["first_class_international", "priority_international", "express_worldwide"]);
    const heavy = localRates({ country: "DE", zipCode: "10115" }, 5).map((r) => r.method);
    expect(heavy).not.toContain("first_class_international");
  });

  it("gives every rate the key Process Order takes: the carrier in lower case, a dash, the method", () => {
    const keys = [
      ...localRates({ country: "US", state: "NY", zipCode: "10001" }, 1),
      ...localRates({ country: "DE", zipCode: "10115" }, 1),
    ].map((r) => r.key);
    expect(keys).toEqual([
      "usps-ground_saver",
      "usps-priority",
      "ups-ground",
      "usps-priority_express",
      "usps-first_class_international",
      "usps-priority_international",
      "dhl-express_worldwide",
    ]);
  });

  it("gives no rates for an address it cannot ship to", () => {
    expect(localRates({ country: "US", state: "NY", zipCode: "ABCDE" }, 1)).toEqual([]);
    expect(localRates({ country: "US", state: "XX", zipCode: "10001" }, 1)).toEqual([]);
    expect(localRates({ country: "KP", zipCode: "12345" }, 1)).toEqual([]);
    expect(localRates({ country: "US", state: "NY", zipCode: "" }, 1)).toEqual([]);
  });
});

describe("methodDescriptionOf", () => {
  it("names a stored method key as the checkout offered it", () => {
    expect(methodDescriptionOf("usps-priority_express")).toBe("USPS Priority Mail Express");
    expect(methodDescriptionOf("dhl-express_worldwide")).toBe("DHL Express Worldwide");
  });

  it("spells out a carrier's own service key it does not know (Shippo), without the carrier twice", () => {
    expect(methodDescriptionOf("usps-usps_media_mail")).toBe("USPS Media Mail");
    expect(methodDescriptionOf("fedex-fedex_2_day")).toBe("FEDEX 2 Day");
  });
});

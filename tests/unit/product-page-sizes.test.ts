import { describe, expect, it } from "vitest";
import { productPageSizes } from "#server/services/catalog/product-page-sizes";

// Decision 0057: one place says where the product page draws the size guide, and it draws one
// whenever the product has a guide.
describe("productPageSizes", () => {
  const sizes = [
    { label: "XS", inventory: 0 },
    { label: "S", inventory: 3 },
    { label: "M", inventory: 0 },
  ];
  const onSale = { isComingSoon: false, inventory: 3, sizeGuide: "Chest 40 in.", sizes };
  const draw = { sizes: ["S"] };
  const own = ["XS", "S", "M"];

  it("draws a guide in exactly one place for every stock, release and draw", () => {
    expect(productPageSizes(onSale, null)).toEqual({ showsSizes: false, listedSizes: own, sizeGuideAt: "choices" });
    expect(productPageSizes(onSale, draw)).toEqual({ showsSizes: false, listedSizes: ["S"], sizeGuideAt: "draw" });
    for (const [soldBy, listedSizes] of [[null, own] as const, [draw, ["S"]] as const]) {
      expect(productPageSizes({ ...onSale, inventory: 0 }, soldBy)).toEqual({ showsSizes: true, listedSizes, sizeGuideAt: "sizes" });
      expect(productPageSizes({ ...onSale, isComingSoon: true }, soldBy)).toEqual({ showsSizes: true, listedSizes, sizeGuideAt: "sizes" });
    }
  });

  it("draws none for a product without a guide, and still shows the sizes when sold out", () => {
    for (const soldBy of [null, draw]) {
      expect(productPageSizes({ ...onSale, sizeGuide: null }, soldBy)).toMatchObject({ showsSizes: false, sizeGuideAt: null });
      expect(productPageSizes({ ...onSale, sizeGuide: null, inventory: 0 }, soldBy)).toMatchObject({ showsSizes: true, sizeGuideAt: null });
    }
  });

  // Decision 0052: a draw gives units of some sizes only; the page lists those, as its entry form does.
  it("lists a draw product's draw sizes, not its own, and One Size as none", () => {
    const soldOut = { ...onSale, inventory: 0, sizeGuide: null };
    expect(productPageSizes(soldOut, { sizes: ["S", "M"] }).listedSizes).toEqual(["S", "M"]);
    expect(productPageSizes({ ...soldOut, isComingSoon: true }, { sizes: ["S", "M"] }).listedSizes).toEqual(["S", "M"]);
    expect(productPageSizes(soldOut, null).listedSizes).toEqual(own);
    expect(productPageSizes({ ...soldOut, sizes: [] }, { sizes: [] }).listedSizes).toEqual([]);
  });
});

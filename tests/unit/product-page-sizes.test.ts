import { describe, expect, it } from "vitest";
import { productPageSizes } from "#server/services/catalog/product-page-sizes";

// Decision 0057: one place says where the product page draws the size guide, and it draws one
// whenever the product has a guide.
describe("productPageSizes", () => {
  const onSale = { isComingSoon: false, inventory: 3, sizeGuide: "Chest 40 in." };

  it("draws a guide in exactly one place for every stock, release and draw", () => {
    expect(productPageSizes(onSale, false)).toEqual({ showsSizes: false, sizeGuideAt: "choices" });
    expect(productPageSizes(onSale, true)).toEqual({ showsSizes: false, sizeGuideAt: "draw" });
    for (const soldByDraw of [false, true]) {
      expect(productPageSizes({ ...onSale, inventory: 0 }, soldByDraw)).toEqual({ showsSizes: true, sizeGuideAt: "sizes" });
      expect(productPageSizes({ ...onSale, isComingSoon: true }, soldByDraw)).toEqual({ showsSizes: true, sizeGuideAt: "sizes" });
    }
  });

  it("draws none for a product without a guide, and still shows the sizes when sold out", () => {
    for (const soldByDraw of [false, true]) {
      expect(productPageSizes({ ...onSale, sizeGuide: null }, soldByDraw)).toEqual({ showsSizes: false, sizeGuideAt: null });
      expect(productPageSizes({ ...onSale, sizeGuide: null, inventory: 0 }, soldByDraw)).toEqual({ showsSizes: true, sizeGuideAt: null });
    }
  });
});

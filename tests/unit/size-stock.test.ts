// Issue 23: what the admin's sizes editor saves (app/components/admin/products/size-stock.ts).
import { describe, expect, it } from "vitest";
import type { AdminProduct } from "#server/contracts/admin-products";
import {
  applyPreset,
  cellKey,
  refreshedFrom,
  SIZE_PRESETS,
  stockStateOf,
  toStockPatch,
  totalStock,
  withPerColor,
} from "#app/components/admin/products/size-stock";

const product = (over: Partial<AdminProduct>) => ({ sizes: [], variants: null, stockPerColor: false, ...over }) as unknown as AdminProduct;

describe("the sizes editor's state", () => {
  it("sends each loaded size with the stock it was loaded at, and new ones without", () => {
    const state = stockStateOf(
      product({
        sizes: [
          { label: "S", inventory: 2 },
          { label: "M", inventory: 3 },
        ],
      }),
    );
    const grown = applyPreset(state, SIZE_PRESETS[0].labels);
    expect(grown.rows.map((r) => r.label)).toEqual(["XS", "S", "M", "L", "XL", "XXL"]);
    expect(toStockPatch(grown, []).sizes).toEqual([
      { label: "XS", inventory: 0 },
      { label: "S", inventory: 2, was: 2 },
      { label: "M", inventory: 3, was: 3 },
      { label: "L", inventory: 0 },
      { label: "XL", inventory: 0 },
      { label: "XXL", inventory: 0 },
    ]);
    expect(totalStock(grown, [])).toBe(5);
    expect(applyPreset(state, SIZE_PRESETS[1].labels).rows.map((r) => r.label)).toEqual(["28", "30", "32", "34", "36", "38", "40"]);
    const none = applyPreset(state, SIZE_PRESETS[2].labels);
    expect(toStockPatch(none, [])).toEqual({ sizes: [], stockPerColor: false });
    expect(totalStock(none, [])).toBeNull();
  });

  it("turning stock per colour on puts each size's stock on the first colour; the grid is sent with was", () => {
    const state = stockStateOf(
      product({
        sizes: [
          { label: "S", inventory: 2 },
          { label: "M", inventory: 3 },
        ],
      }),
    );
    const grid = withPerColor(state, true, ["Black", "White"]);
    expect(totalStock(grid, ["Black", "White"])).toBe(5);
    expect(toStockPatch(grid, ["Black", "White"]).variants).toEqual([
      { size: "S", color: "Black", inventory: 2 },
      { size: "S", color: "White", inventory: 0 },
      { size: "M", color: "Black", inventory: 3 },
      { size: "M", color: "White", inventory: 0 },
    ]);
    // Without sizes, the product's own stock goes on the first colour.
    expect(toStockPatch(withPerColor(stockStateOf(product({})), true, ["Red", "Blue"], 4), ["Red", "Blue"]).variants).toEqual([
      { size: null, color: "Red", inventory: 4 },
      { size: null, color: "Blue", inventory: 0 },
    ]);
    const loaded = stockStateOf(
      product({
        sizes: [{ label: "M", inventory: 3 }],
        stockPerColor: true,
        variants: [
          { size: "M", color: "Black", inventory: 1 },
          { size: "M", color: "White", inventory: 2 },
        ],
      }),
    );
    expect(toStockPatch(loaded, ["Black", "White"])).toEqual({
      sizes: [{ label: "M", inventory: 3 }],
      stockPerColor: true,
      variants: [
        { size: "M", color: "Black", inventory: 1, was: 1 },
        { size: "M", color: "White", inventory: 2, was: 2 },
      ],
    });
  });

  it("after a refused save, a size that moved shows the stock now; what was typed elsewhere stays", () => {
    const state = stockStateOf(
      product({
        sizes: [
          { label: "S", inventory: 3 },
          { label: "M", inventory: 3 },
        ],
      }),
    );
    const typed = { ...state, rows: state.rows.map((r) => ({ ...r, inventory: r.label === "S" ? "9" : "10" })) };
    const fresh = refreshedFrom(
      typed,
      product({
        sizes: [
          { label: "S", inventory: 3 },
          { label: "M", inventory: 2 },
        ],
      }),
    );
    expect(toStockPatch(fresh, []).sizes).toEqual([
      { label: "S", inventory: 9, was: 3 },
      { label: "M", inventory: 2, was: 2 },
    ]);
    expect(cellKey("a", "Black")).toBe("a\u0000Black");
  });
});

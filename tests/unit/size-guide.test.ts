import { describe, expect, it } from "vitest";
import { sizeGuideView } from "#server/contracts/size-guide";

describe("sizeGuideView", () => {
  it("keeps plain text as text, line breaks and all", () => {
    expect(sizeGuideView("Runs small.\nTake one size up | or two.")).toEqual({
      kind: "text",
      text: "Runs small.\nTake one size up | or two.",
    });
  });

  it("reads lines split by | (Markdown style, with its rule) or tabs as a table, first row the header", () => {
    expect(sizeGuideView("| Size | Chest | Length |\n|---|---|---|\n| S | 36 | 27 |\n| M | 40\nMeasurements in inches")).toEqual({
      kind: "table",
      head: ["Size", "Chest", "Length"],
      rows: [
        ["S", "36", "27"],
        ["M", "40", ""],
      ],
      notes: ["Measurements in inches"],
    });
    expect(sizeGuideView("Size\tWaist\n30\t30-31\n32\t32-33")).toEqual({
      kind: "table",
      head: ["Size", "Waist"],
      rows: [
        ["30", "30-31"],
        ["32", "32-33"],
      ],
      notes: [],
    });
  });

  it("keeps markup as the text it is", () => {
    const view = sizeGuideView("<b>Size</b> | <img src=x onerror=alert(1)>\nS | 1");
    expect(view).toEqual({ kind: "table", head: ["<b>Size</b>", "<img src=x onerror=alert(1)>"], rows: [["S", "1"]], notes: [] });
  });
});

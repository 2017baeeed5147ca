// Decision 0071: labels and packing slips are written straight out, not through pdf-lib's object
// graph. A reader finds every object through the cross-reference table, so its offsets must be exact.
import { describe, expect, it } from "vitest";
import { PDFDocument } from "pdf-lib";
import { PageDrawing, pdfFile } from "#server/integrations/shipping/pdf-file";
import { renderLabelPdf } from "#server/integrations/shipping/label-pdf";
import { pdfPageTexts } from "../setup/pdf-text";

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** Each in-use entry of the table, as [object number, byte offset]. */
function xrefEntries(file: string): [number, number][] {
  const start = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(file)![1]);
  expect(file.slice(start, start + 5)).toBe("xref\n");
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(file.slice(start))!;
  const table = file
    .slice(start)
    .split("\n")
    .slice(2, 2 + Number(count));
  expect(table[0]).toBe("0000000000 65535 f ");
  return table.slice(1).map((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    return [Number(first) + i + 1, Number(entry.slice(0, 10))];
  });
}

describe("pdfFile", () => {
  it("points each cross-reference entry at its object, and a reader opens every page", async () => {
    const pages = [new PageDrawing().text("One", 20, 20, 10, "regular"), new PageDrawing().text("Two", 20, 20, 10, "bold")];
    const bytes = pdfFile({ title: "Two pages", size: [288, 432], pages });
    const file = text(bytes);
    const entries = xrefEntries(file);
    expect(entries).toHaveLength(9);
    for (const [number, offset] of entries) expect(file.slice(offset).startsWith(`${number} 0 obj\n`)).toBe(true);

    const doc = await PDFDocument.load(bytes);
    expect(doc.getTitle()).toBe("Two pages");
    expect(doc.getPages().map((p) => [p.getWidth(), p.getHeight()])).toEqual([
      [288, 432],
      [288, 432],
    ]);
    expect(await pdfPageTexts(bytes)).toEqual([["One"], ["Two"]]);
  });

  it("keeps what WinAnsi can draw and reads the rest as ?, and no text can break out of its string", async () => {
    const page = new PageDrawing().text("Zoë (M) \\ ) Tj 漢 😀", 20, 20, 10, "regular");
    const bytes = pdfFile({ title: "Zoë's label", size: [288, 432], pages: [page] });
    expect(await pdfPageTexts(bytes)).toEqual([["Zoë (M) \\ ) Tj ? ?"]]);
    expect((await PDFDocument.load(bytes)).getTitle()).toBe("Zoë's label");
    expect(text(bytes)).not.toContain("(M)");
  });
});

describe("renderLabelPdf", () => {
  it("writes the address in ASCII, the tracking number, and the slip's page after the label", async () => {
    const bytes = await renderLabelPdf({
      orderId: 42,
      to: { name: "Zoë Buyer", street: "1 Main St", city: "Albany", state: "NY", zipCode: "12207", country: "US" },
      parcel: { weightLbs: 2, lengthIn: 14, widthIn: 11, heightIn: 3 },
      carrier: "usps",
      service: "Priority Mail",
      trackingNumber: "LOCAL000042123456",
      packingSlip: { orderNumber: "1042", lines: [{ name: "Heavy Hoodie", size: "M", color: "Navy", quantity: 2 }] },
    });
    for (const [number, offset] of xrefEntries(text(bytes))) expect(text(bytes).slice(offset).startsWith(`${number} 0 obj\n`)).toBe(true);
    const [label, slip] = await pdfPageTexts(bytes);
    expect(label).toEqual([
      "USPS",
      "Priority Mail",
      "TEST LABEL - NOT VALID FOR POSTAGE",
      "SHIP TO:",
      "Zo? Buyer",
      "1 Main St",
      "Albany, NY 12207",
      "US",
      "Weight: 2.0 lb",
      "Box: 14 x 11 x 3 in",
      "Order #42",
      "TRACKING # LOCAL000042123456",
    ]);
    expect(slip).toEqual(["PACKING SLIP", "Order #1042", "2 x", "Heavy Hoodie", "Size M · Navy", "2 pieces in this box"]);
  });
});

import zlib from "node:zlib";
import {
  fill,
  PDFContentStream,
  PDFDocument,
  PDFName,
  PDFRawStream,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
  StandardFonts,
  type PDFFont,
  type PDFOperator,
} from "pdf-lib";
import { packingSlipRows } from "./packing-slip";
import type { PackingSlip, Parcel, ShippingAddress } from "./types";

const PAGE: [number, number] = [288, 432];
const SLIP_TOP = 340;
const SLIP_ROW = 30;
const SLIP_BOTTOM = 40;

const FLATE = PDFName.of("FlateDecode");

/**
 * The document's bytes, made for less CPU than pdf-lib's own `save()` (issue 24: a label is made
 * for every order of a drop). pdf-lib deflates each stream with pako, which builds and zeroes a
 * fresh compressor of about 256 KB for every one; that was more than half of a label's CPU. The
 * pages' contents are deflated by node's zlib instead, and the objects are written as they are,
 * without the deflated object stream and cross-reference stream: a file about 1 KB larger that
 * every PDF reader opens the same.
 */
function saveLean(doc: PDFDocument): Promise<Uint8Array> {
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFContentStream) || object.dict.lookup(PDFName.of("Filter")) !== FLATE) continue;
    doc.context.assign(ref, PDFRawStream.of(object.dict, zlib.deflateSync(object.getUnencodedContents())));
  }
  return doc.save({ useObjectStreams: false });
}

/** Text the font can draw: a character outside its set (WinAnsi for the standard fonts) reads "?". */
function drawable(font: PDFFont): (s: string) => string {
  const known = new Set(font.getCharacterSet());
  return (s) => Array.from(s, (ch) => (known.has(ch.codePointAt(0)!) ? ch : "?")).join("");
}

/** Cut to the width with "..." so a long product name never runs off the slip. */
function fit(s: string, font: PDFFont, size: number, width: number): string {
  if (font.widthOfTextAtSize(s, size) <= width) return s;
  let cut = s;
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/**
 * The packing slip after the label, on pages of the same size (issue 23): the order number and each
 * line's quantity, name, size and colour, so the packer picks the right piece. As many pages as the
 * lines need.
 */
function drawPackingSlip(doc: PDFDocument, slip: PackingSlip, bold: PDFFont, regular: PDFFont) {
  const safe = { bold: drawable(bold), regular: drawable(regular) };
  const { rows, pieces } = packingSlipRows(slip);
  const perPage = Math.floor((SLIP_TOP - SLIP_BOTTOM) / SLIP_ROW);
  const pages = Math.max(1, Math.ceil(rows.length / perPage));
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage(PAGE);
    // Everything cut to the page's width, less the margin.
    const text = (s: string, x: number, y: number, size: number, font: PDFFont) =>
      page.drawText(fit((font === bold ? safe.bold : safe.regular)(s), font, size, PAGE[0] - x - 16), {
        x,
        y,
        size,
        font,
        color: rgb(0, 0, 0),
      });
    text(pages > 1 ? `PACKING SLIP (${p + 1} of ${pages})` : "PACKING SLIP", 20, 396, 16, bold);
    text(`Order #${slip.orderNumber}`, 20, 376, 11, regular);
    page.drawLine({ start: { x: 8, y: 364 }, end: { x: 280, y: 364 }, thickness: 1 });
    rows.slice(p * perPage, (p + 1) * perPage).forEach((row, i) => {
      const y = SLIP_TOP - i * SLIP_ROW;
      text(row.quantity, 20, y, 10, bold);
      text(row.name, 50, y, 10, bold);
      if (row.choice) text(row.choice, 50, y - 13, 9, regular);
    });
    if (p === pages - 1) text(`${pieces} ${pieces === 1 ? "piece" : "pieces"} in this box`, 20, 20, 9, bold);
  }
}

/**
 * The packing slip on its own (the admin's "Packing slip" for any order, whichever carrier printed
 * the label): the same 4×6 in pages as the one the local label carries.
 */
export async function renderPackingSlipPdf(slip: PackingSlip): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Packing slip for order ${slip.orderNumber}`);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  drawPackingSlip(doc, slip, bold, regular);
  return saveLean(doc);
}

/** A 4×6 in shipping label (the size thermal printers take), drawn with pdf-lib; the packing slip after it. */
export async function renderLabelPdf(input: {
  orderId: number;
  to: ShippingAddress;
  parcel: Parcel;
  carrier: string;
  service: string;
  trackingNumber: string;
  packingSlip?: PackingSlip;
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Shipping label for order ${input.orderId}`);
  const page = doc.addPage(PAGE);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const text = (s: string, x: number, y: number, size = 10, font = regular) =>
    page.drawText(s.replace(/[^\x20-\x7E]/g, "?"), { x, y, size, font, color: rgb(0, 0, 0) });

  page.drawRectangle({ x: 8, y: 8, width: 272, height: 416, borderWidth: 2, borderColor: rgb(0, 0, 0) });
  text(input.carrier.toUpperCase(), 20, 396, 22, bold);
  text(input.service, 20, 378, 10);
  text("TEST LABEL - NOT VALID FOR POSTAGE", 20, 360, 8, bold);
  page.drawLine({ start: { x: 8, y: 350 }, end: { x: 280, y: 350 }, thickness: 1 });
  text("SHIP TO:", 20, 330, 9, bold);
  const to = input.to;
  const lines = [to.name, to.street, `${to.city}${to.state ? `, ${to.state}` : ""} ${to.zipCode}`, to.country];
  lines.forEach((line, i) => text(line, 20, 312 - i * 16, 12, i === 0 ? bold : regular));
  page.drawLine({ start: { x: 8, y: 236 }, end: { x: 280, y: 236 }, thickness: 1 });
  text(`Weight: ${input.parcel.weightLbs.toFixed(1)} lb`, 20, 216, 10);
  text(`Box: ${input.parcel.lengthIn} x ${input.parcel.widthIn} x ${input.parcel.heightIn} in`, 20, 200, 10);
  text(`Order #${input.orderId}`, 20, 184, 10);
  // A stand-in barcode: bars from the tracking number's digits, for the look of a real label. One
  // filled path of all the bars: drawn a rectangle at a time, they were a third of the label's CPU.
  const bars: PDFOperator[] = [];
  let x = 20;
  for (const ch of input.trackingNumber) {
    const w = (ch.charCodeAt(0) % 3) + 1;
    bars.push(rectangle(x, 90, w, 70));
    x += w + 2;
  }
  page.pushOperators(pushGraphicsState(), setFillingRgbColor(0, 0, 0), ...bars, fill(), popGraphicsState());
  text(`TRACKING # ${input.trackingNumber}`, 20, 70, 10, bold);
  if (input.packingSlip && input.packingSlip.lines.length > 0) drawPackingSlip(doc, input.packingSlip, bold, regular);
  return saveLean(doc);
}

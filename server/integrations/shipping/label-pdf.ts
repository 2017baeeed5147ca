import { packingSlipRows } from "./packing-slip";
import { PageDrawing, pdfFile, widthOf, drawable, type Face } from "./pdf-file";
import type { PackingSlip, Parcel, ShippingAddress } from "./types";

const PAGE: [number, number] = [288, 432];
const SLIP_TOP = 340;
const SLIP_ROW = 30;
const SLIP_BOTTOM = 40;

/** Cut to the width with "..." so a long product name never runs off the slip. */
function fit(s: string, face: Face, size: number, width: number): string {
  if (widthOf(s, face, size) <= width) return s;
  let cut = s;
  while (cut.length > 0 && widthOf(`${cut}...`, face, size) > width) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/**
 * The packing slip after the label, on pages of the same size (issue 23): the order number and each
 * line's quantity, name, size and colour, so the packer picks the right piece. As many pages as the
 * lines need.
 */
function packingSlipPages(slip: PackingSlip): PageDrawing[] {
  const { rows, pieces } = packingSlipRows(slip);
  const perPage = Math.floor((SLIP_TOP - SLIP_BOTTOM) / SLIP_ROW);
  const count = Math.max(1, Math.ceil(rows.length / perPage));
  const pages: PageDrawing[] = [];
  for (let p = 0; p < count; p++) {
    const page = new PageDrawing();
    // Everything cut to the page's width, less the margin.
    const text = (s: string, x: number, y: number, size: number, face: Face) =>
      page.text(fit(drawable(s, face), face, size, PAGE[0] - x - 16), x, y, size, face);
    text(count > 1 ? `PACKING SLIP (${p + 1} of ${count})` : "PACKING SLIP", 20, 396, 16, "bold");
    text(`Order #${slip.orderNumber}`, 20, 376, 11, "regular");
    page.line([8, 364], [280, 364], 1);
    rows.slice(p * perPage, (p + 1) * perPage).forEach((row, i) => {
      const y = SLIP_TOP - i * SLIP_ROW;
      text(row.quantity, 20, y, 10, "bold");
      text(row.name, 50, y, 10, "bold");
      if (row.choice) text(row.choice, 50, y - 13, 9, "regular");
    });
    if (p === count - 1) text(`${pieces} ${pieces === 1 ? "piece" : "pieces"} in this box`, 20, 20, 9, "bold");
    pages.push(page);
  }
  return pages;
}

/**
 * The packing slip on its own (the admin's "Packing slip" for any order, whichever carrier printed
 * the label): the same 4×6 in pages as the one the local label carries.
 */
export async function renderPackingSlipPdf(slip: PackingSlip): Promise<Uint8Array<ArrayBuffer>> {
  return pdfFile({ title: `Packing slip for order ${slip.orderNumber}`, size: PAGE, pages: packingSlipPages(slip) });
}

/** A 4×6 in shipping label (the size thermal printers take); the packing slip after it. */
export async function renderLabelPdf(input: {
  orderId: number;
  to: ShippingAddress;
  parcel: Parcel;
  carrier: string;
  service: string;
  trackingNumber: string;
  packingSlip?: PackingSlip;
}): Promise<Uint8Array<ArrayBuffer>> {
  const page = new PageDrawing();
  // The carrier's systems read addresses in ASCII: anything else on the label reads "?".
  const text = (s: string, x: number, y: number, size = 10, face: Face = "regular") =>
    page.text(s.replace(/[^\x20-\x7E]/g, "?"), x, y, size, face);

  page.frame(8, 8, 272, 416, 2);
  text(input.carrier.toUpperCase(), 20, 396, 22, "bold");
  text(input.service, 20, 378, 10);
  text("TEST LABEL - NOT VALID FOR POSTAGE", 20, 360, 8, "bold");
  page.line([8, 350], [280, 350], 1);
  text("SHIP TO:", 20, 330, 9, "bold");
  const to = input.to;
  const lines = [to.name, to.street, `${to.city}${to.state ? `, ${to.state}` : ""} ${to.zipCode}`, to.country];
  lines.forEach((line, i) => text(line, 20, 312 - i * 16, 12, i === 0 ? "bold" : "regular"));
  page.line([8, 236], [280, 236], 1);
  text(`Weight: ${input.parcel.weightLbs.toFixed(1)} lb`, 20, 216, 10);
  text(`Box: ${input.parcel.lengthIn} x ${input.parcel.widthIn} x ${input.parcel.heightIn} in`, 20, 200, 10);
  text(`Order #${input.orderId}`, 20, 184, 10);
  // A stand-in barcode: bars from the tracking number's digits, for the look of a real label.
  const bars: [number, number, number, number][] = [];
  let x = 20;
  for (const ch of input.trackingNumber) {
    const w = (ch.charCodeAt(0) % 3) + 1;
    bars.push([x, 90, w, 70]);
    x += w + 2;
  }
  page.fill(bars);
  text(`TRACKING # ${input.trackingNumber}`, 20, 70, 10, "bold");
  const slip = input.packingSlip && input.packingSlip.lines.length > 0 ? packingSlipPages(input.packingSlip) : [];
  return pdfFile({ title: `Shipping label for order ${input.orderId}`, size: PAGE, pages: [page, ...slip] });
}

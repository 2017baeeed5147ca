import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import type { Parcel, ShippingAddress } from "./types";

/** A 4×6 in shipping label (the size thermal printers take), drawn with pdf-lib. */
export async function renderLabelPdf(input: {
  orderId: number;
  to: ShippingAddress;
  parcel: Parcel;
  carrier: string;
  service: string;
  trackingNumber: string;
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Shipping label for order ${input.orderId}`);
  const page = doc.addPage([288, 432]);
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
  // A stand-in barcode: bars from the tracking number's digits, for the look of a real label.
  let x = 20;
  for (const ch of input.trackingNumber) {
    const w = (ch.charCodeAt(0) % 3) + 1;
    page.drawRectangle({ x, y: 90, width: w, height: 70, color: rgb(0, 0, 0) });
    x += w + 2;
  }
  text(`TRACKING # ${input.trackingNumber}`, 20, 70, 10, bold);
  return doc.save();
}

import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFPage } from "pdf-lib";

/**
 * The texts drawn on each page of a label or slip (pdf-file.ts): every `<hex> Tj` of the page's content
 * streams, decoded as WinAnsi (Latin-1 for the characters a label uses). Enough to read what a
 * label or slip says without a PDF text extractor.
 */
export async function pdfPageTexts(bytes: Uint8Array): Promise<string[][]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map(pageTexts);
}

function pageTexts(page: PDFPage): string[] {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents];
  const texts: string[] = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const source = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
    for (const match of source.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) texts.push(Buffer.from(match[1]!, "hex").toString("latin1"));
  }
  return texts;
}

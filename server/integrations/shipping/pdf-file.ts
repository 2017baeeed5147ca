import { PDFHexString, StandardFontEmbedder, StandardFonts } from "pdf-lib";

/**
 * A label's few pages written straight out (decision 0071), not built as pdf-lib's object graph and
 * serialised: that cost about 1.2 ms of CPU a label, a fifth of what each order of a drop costs the
 * store. The pages are set in PDF's standard Helvetica, which every reader carries, so no font is
 * embedded; pdf-lib still measures and encodes the text (its standard fonts' metrics and WinAnsi).
 */

export type Face = "regular" | "bold";

const FACES: Record<Face, { embedder: StandardFontEmbedder; resource: string; known: Set<number>; hex: Map<number, string> }> = {
  regular: face(StandardFonts.Helvetica, "F1"),
  bold: face(StandardFonts.HelveticaBold, "F2"),
};

type FontName = Parameters<typeof StandardFontEmbedder.for>[0];

function face(name: StandardFonts, resource: string) {
  // pdf-lib's StandardFonts and its fonts package's FontNames are two enums of the same names.
  const embedder = StandardFontEmbedder.for(name as string as FontName);
  return { embedder, resource, known: new Set(embedder.encoding.supportedCodePoints), hex: new Map<number, string>() };
}

/** The text as a PDF hex string of its WinAnsi codes, each character's code worked out once. */
function encoded(s: string, face: Face): string {
  const { embedder, hex } = FACES[face];
  let out = "<";
  for (const ch of drawable(s, face)) {
    const point = ch.codePointAt(0)!;
    let code = hex.get(point);
    if (code === undefined) {
      code = embedder.encoding.encodeUnicodeCodePoint(point).code.toString(16).toUpperCase().padStart(2, "0");
      hex.set(point, code);
    }
    out += code;
  }
  return `${out}>`;
}

/** Text the face can draw: a character outside its set (WinAnsi) reads "?". */
export function drawable(s: string, face: Face): string {
  const { known } = FACES[face];
  let out = "";
  for (const ch of s) out += known.has(ch.codePointAt(0)!) ? ch : "?";
  return out;
}

/** The width of drawable text, in points, kerning included. */
export function widthOf(s: string, face: Face, size: number): number {
  return FACES[face].embedder.widthOfTextAtSize(s, size);
}

/** One page's drawing, as PDF content operators; black on white, in points from the bottom left. */
export class PageDrawing {
  private readonly ops: string[] = [];

  /** Text at (x, y), its baseline's start; characters the face cannot draw read "?". */
  text(s: string, x: number, y: number, size: number, face: Face): this {
    this.ops.push(`BT /${FACES[face].resource} ${size} Tf ${x} ${y} Td ${encoded(s, face)} Tj ET`);
    return this;
  }

  line(from: [number, number], to: [number, number], thickness: number): this {
    this.ops.push(`${thickness} w ${from[0]} ${from[1]} m ${to[0]} ${to[1]} l S`);
    return this;
  }

  /** A rectangle's outline. */
  frame(x: number, y: number, width: number, height: number, thickness: number): this {
    this.ops.push(`${thickness} w ${x} ${y} ${width} ${height} re S`);
    return this;
  }

  /** Filled rectangles, [x, y, width, height] each, as one path. */
  fill(rectangles: [number, number, number, number][]): this {
    if (rectangles.length > 0) this.ops.push(`${rectangles.map((r) => `${r.join(" ")} re`).join(" ")} f`);
    return this;
  }

  toString(): string {
    return `${this.ops.join("\n")}\n`;
  }
}

/**
 * The file: catalog, page tree, the two faces, the document's title, then each page and its
 * content, and the cross-reference table of every object's byte offset. Every byte is ASCII (text is
 * hex-encoded), so string lengths are byte lengths.
 */
export function pdfFile(input: { title: string; size: [number, number]; pages: PageDrawing[] }): Uint8Array<ArrayBuffer> {
  const pageRef = (i: number) => 6 + 2 * i;
  const objects: string[] = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${input.pages.map((_, i) => `${pageRef(i)} 0 R`).join(" ")}] /Count ${input.pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
    `<< /Title ${PDFHexString.fromText(input.title).toString()} >>`,
  ];
  for (const [i, page] of input.pages.entries()) {
    const content = page.toString();
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${input.size.join(" ")}] ` +
        `/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageRef(i) + 1} 0 R >>`,
      `<< /Length ${content.length} >>\nstream\n${content}endstream`,
    );
  }
  let file = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(file.length);
    file += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = file.length;
  // Each entry exactly 20 bytes, its end of line included (PDF 32000-1, 7.5.4).
  file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) file += `${String(offset).padStart(10, "0")} 00000 n \n`;
  file += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(file, "latin1"));
}

/**
 * A product's size guide as the admin typed it (plain text, at most 4,000 characters): shown as
 * text with its line breaks, or, when its lines are split by "|" or tabs, as a table whose first
 * row is the header. Only ever rendered as text: nothing in it is markup.
 */
export type SizeGuideView = { kind: "text"; text: string } | { kind: "table"; head: string[]; rows: string[][]; notes: string[] };

const SEPARATOR = /[|\t]/;
/** A Markdown-style rule under the header ("---|---", "| :-- | --: |"): dropped. */
const RULE = /^[\s|:\t-]+$/;

export function sizeGuideView(text: string): SizeGuideView {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const tabular = lines.filter((line) => SEPARATOR.test(line));
  // A table when most lines have cells; a stray "|" in a sentence keeps it text.
  if (lines.length < 2 || tabular.length < Math.max(2, Math.ceil(lines.length / 2))) return { kind: "text", text: text.trim() };
  const cells = lines
    .filter((line) => !RULE.test(line) && SEPARATOR.test(line))
    .map((line) =>
      line
        .replace(/^\|/, "")
        .replace(/\|$/, "")
        .split(SEPARATOR)
        .map((cell) => cell.trim()),
    );
  const width = Math.max(...cells.map((row) => row.length));
  const padded = cells.map((row) => [...row, ...Array.from({ length: width - row.length }, () => "")]);
  // Lines without cells ("Measurements in inches") are kept as notes under the table.
  const notes = lines.filter((line) => !SEPARATOR.test(line));
  return { kind: "table", head: padded[0]!, rows: padded.slice(1), notes };
}

/**
 * Where the product page draws a product's size guide (decision 0057). Decided on the server
 * (`productPageSizes`) so the page draws exactly one and its no-JavaScript `#size-guide` stays
 * unique: "choices", inside Add To Bag beside its size choice; "sizes", beside the sizes the page
 * only shows (sold out or coming soon); "draw", in the draw panel, which alone knows the draw's
 * state by the browser's clock (the page may have been kept since it was rendered).
 */
export type SizeGuidePlace = "choices" | "sizes" | "draw";

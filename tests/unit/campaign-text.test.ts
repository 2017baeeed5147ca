import { describe, expect, it } from "vitest";
import { htmlToText } from "#server/services/mail/campaign-mail";

describe("a campaign's plain-text alternative", () => {
  it("joins the source's line breaks, writes links out and keeps paragraphs and list items apart", () => {
    const html = '<p>New\n   drop</p>\n\n<p>See <a href="https://shop.example/store">the store</a></p><ul><li>Hoodie</li></ul>';
    expect(htmlToText(html)).toBe("New drop\n\nSee the store (https://shop.example/store)\n\n• Hoodie");
  });

  it("keeps a run of spaces without a newline as one space, as a mail client shows it", () => {
    expect(htmlToText("<p>Two   spaces\t\tand tabs</p>")).toBe("Two spaces and tabs");
  });

  // The content may be 500 KB. `\s*\n\s*` backtracked through a run of white space with no newline
  // in it once from every starting point: 200,000 spaces took about 30 s, for each recipient.
  it("reads a long run of white space in linear time", { timeout: 2_000 }, () => {
    expect(htmlToText(`<p>Before${" ".repeat(200_000)}after</p>`)).toBe("Before after");
    expect(htmlToText(`<p>Before${"\t ".repeat(100_000)}\nafter</p>`)).toBe("Before after");
  });
});

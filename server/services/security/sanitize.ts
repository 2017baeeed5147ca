import sanitizeHtml from "sanitize-html";

/**
 * Admin-authored HTML (countdown text, e-mail content) keeps simple formatting and links and
 * loses everything that could run: scripts, styles, event handlers, javascript: URLs.
 */
const RICH_TEXT: sanitizeHtml.IOptions = {
  allowedTags: ["b", "strong", "i", "em", "u", "s", "br", "p", "span", "a", "small", "mark", "h1", "h2", "h3", "ul", "ol", "li"],
  allowedAttributes: { a: ["href", "title", "target", "rel"] },
  allowedSchemes: ["http", "https", "mailto"],
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, RICH_TEXT).trim();
}

/** Text a customer or admin typed, made safe to put inside an e-mail's HTML. */
export const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

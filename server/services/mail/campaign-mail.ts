import sanitizeHtml from "sanitize-html";
import type { AppContext } from "#server/context";
import type { OutgoingMail } from "#server/integrations/mail";
import { escapeHtml } from "#server/services/security/sanitize";

/**
 * What subscriber mail may contain. E-mail layout needs more than the countdown text's rich text
 * (tables, inline styles, images), so it has its own allow-list; everything that could run or
 * load behind the reader's back still goes: scripts, event handlers, forms, iframes, javascript:
 * and data: URLs, and CSS that fetches (url(), expression()).
 */
const SAFE_CSS_VALUE = /^(?!.*(?:url|expression|image-set|element|-moz-binding|javascript|behavior)\s*[(:])[^<>{}\\]*$/i;
const CSS_PROPERTIES = [
  "color",
  "background",
  "background-color",
  "border",
  "border-top",
  "border-right",
  "border-bottom",
  "border-left",
  "border-collapse",
  "border-color",
  "border-style",
  "border-width",
  "border-radius",
  "margin",
  "margin-top",
  "margin-right",
  "margin-bottom",
  "margin-left",
  "padding",
  "padding-top",
  "padding-right",
  "padding-bottom",
  "padding-left",
  "font",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "line-height",
  "letter-spacing",
  "text-align",
  "text-decoration",
  "text-transform",
  "vertical-align",
  "white-space",
  "width",
  "max-width",
  "min-width",
  "height",
  "display",
  "opacity",
];
const ALL_STYLES = Object.fromEntries(CSS_PROPERTIES.map((property) => [property, [SAFE_CSS_VALUE]]));
const LAYOUT_ATTRIBUTES = [
  "style",
  "align",
  "valign",
  "width",
  "height",
  "bgcolor",
  "role",
  "dir",
  "border",
  "cellpadding",
  "cellspacing",
  "colspan",
  "rowspan",
];

const EMAIL_HTML: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "img", "center"],
  allowedAttributes: {
    "*": LAYOUT_ATTRIBUTES,
    a: ["href", "title", "target", "rel", "name"],
    img: ["src", "alt", "title"],
  },
  allowedSchemes: ["http", "https", "mailto", "tel"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowProtocolRelative: false,
  allowedStyles: { "*": ALL_STYLES },
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }) },
};

/** Admin-authored e-mail content, made safe before it is stored, previewed or sent. */
export function sanitizeEmailHtml(html: string): string {
  return sanitizeHtml(html, EMAIL_HTML).trim();
}

/** Site-relative links ("/store") pointed at the store, since a mail client has no base URL. */
export function absolutizeLinks(html: string, origin: string): string {
  return html.replace(/(\s(?:href|src)=")\/(?!\/)/g, `$1${origin}/`);
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };

/** The plain-text alternative: the same words, links written out, paragraphs kept apart. */
export function htmlToText(html: string): string {
  // Line breaks in HTML source mean nothing; the markup decides where lines break. Each run of
  // white space is looked at once: `\s*\n\s*` backtracked through every run without a newline,
  // quadratic in its length (500 KB of spaces held the sender for minutes, per recipient).
  const marked = html
    .replace(/\s+/g, (run) => (run.includes("\n") ? " " : run))
    .replace(/<a\b[^>]*?\shref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_, href: string, label: string) => {
      const text = label.replace(/<[^>]+>/g, "").trim();
      return text && text !== href ? `${label} (${href})` : href;
    })
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n• ")
    .replace(/<\/(p|div|h[1-6]|tr|table|blockquote|ul|ol|center)>/gi, "\n\n");
  return sanitizeHtml(marked, { allowedTags: [], allowedAttributes: {} })
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? "")
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The whole message around the admin's content: a light page with a 600px white card (so content
 * written from scratch reads well anywhere) and a footer that says why the reader gets this and
 * how to stop it.
 */
export function campaignDocument(ctx: AppContext, subject: string, content: string, unsubscribeHref: string): string {
  const brand = escapeHtml(ctx.config.brand.name);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title>
<style>@media only screen and (max-width:480px){.frame{padding:0 !important}.card{border-radius:0 !important}.content{padding:22px 16px !important}}</style></head>
<body style="margin:0;padding:0;background-color:#f3f2ef;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f3f2ef;"><tr><td class="frame" align="center" style="padding:24px 12px;">
<table class="card" role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border-radius:6px;"><tr><td class="content" style="padding:28px 24px;font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.6;color:#141414;">
${content}
</td></tr></table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;"><tr><td align="center" style="padding:20px 12px 8px;font-family:Helvetica,Arial,sans-serif;font-size:12px;line-height:1.6;color:#5f5f5f;">
You're receiving this because you signed up for early access to ${brand}.<br>
<a href="${escapeHtml(unsubscribeHref)}" style="color:#333333;text-decoration:underline;">Unsubscribe</a> and you won't hear from us again.
</td></tr></table>
</td></tr></table>
</body></html>`;
}

/**
 * One subscriber's message. Besides the link in the footer it carries RFC 2369/8058 headers, so
 * mail clients offer their own one-click unsubscribe, which POSTs to the same signed link.
 */
export function campaignMail(
  ctx: AppContext,
  campaign: { id: number; subject: string; htmlContent: string },
  recipient: { email: string },
  unsubscribeHref: string,
  origin: string,
): OutgoingMail {
  const content = absolutizeLinks(campaign.htmlContent, origin);
  return {
    stream: "broadcast",
    to: recipient.email,
    subject: campaign.subject,
    tag: `campaign-${campaign.id}`,
    html: campaignDocument(ctx, campaign.subject, content, unsubscribeHref),
    text: `${htmlToText(content)}\n\n—\nYou're receiving this because you signed up for early access to ${ctx.config.brand.name}.\nUnsubscribe: ${unsubscribeHref}\n`,
    headers: {
      "List-Unsubscribe": `<${unsubscribeHref}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

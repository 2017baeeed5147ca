import { orderNumberOf } from "#server/contracts/checkout";
import { formatUsdCents } from "#server/contracts/money";
import type { Tracking } from "#server/contracts/order-page";
import { choiceLabel } from "#server/contracts/sizes-view";
import type { AppContext } from "#server/context";
import type { Order } from "#db/schema";
import type { OutgoingMail } from "#server/integrations/mail";
import { escapeHtml } from "#server/services/security/sanitize";

type OrderForMail = Pick<Order, "id" | "paymentIntentId" | "customerEmail" | "customerName">;

const orderLink = (url: string | null) =>
  url
    ? {
        html: `<p><a href="${escapeHtml(url)}">View your order</a></p>`,
        text: `View your order: ${url}\n`,
      }
    : { html: "", text: "" };

/** The customer's order confirmation, with the spec's order number and the order page's link. */
export function orderConfirmationEmail(
  ctx: AppContext,
  order: Order,
  items: {
    productName: string;
    productPriceCents: number;
    quantity: number;
    totalCents: number;
    size?: string | null;
    color?: string | null;
  }[],
  pageUrl: string | null = null,
): OutgoingMail {
  // "Tee (Size M · Black)": the size and colour bought, for a product that has them (decision 0045).
  const named = (i: (typeof items)[number]) => {
    const chosen = choiceLabel(i.size ?? null, i.color ?? null);
    return chosen ? `${i.productName} (${chosen})` : i.productName;
  };
  const number = orderNumberOf(order);
  const brand = ctx.config.brand.name;
  const link = orderLink(pageUrl);
  const rows = items
    .map((i) => `<tr><td>${escapeHtml(named(i))} × ${i.quantity}</td><td align="right">${formatUsdCents(i.totalCents)}</td></tr>`)
    .join("");
  const totals: [string, number][] = [
    ["Subtotal", order.subtotalCents],
    ["Shipping", order.shippingCents],
    ["Tax", order.taxCents],
    ["Total", order.totalCents],
  ];
  return {
    stream: "outbound",
    to: order.customerEmail,
    subject: `${brand} order #${number} confirmed`,
    tag: "order-confirmation",
    html:
      `<h1>Thank you, ${escapeHtml(order.customerName)}.</h1>` +
      `<p>Your order <strong>#${number}</strong> is confirmed and being prepared. Limited editions are final sale.</p>` +
      `<table width="100%">${rows}${totals.map(([k, v]) => `<tr><th align="left">${k}</th><td align="right">${formatUsdCents(v)}</td></tr>`).join("")}</table>` +
      link.html +
      `<p>Questions? Reply to ${escapeHtml(ctx.config.brand.supportEmail)}.</p>`,
    text:
      `Thank you, ${order.customerName}. Your order #${number} is confirmed.\n\n` +
      items.map((i) => `${named(i)} x ${i.quantity}: ${formatUsdCents(i.totalCents)}`).join("\n") +
      `\n\n${totals.map(([k, v]) => `${k}: ${formatUsdCents(v)}`).join("\n")}\n` +
      (link.text ? `\n${link.text}` : ""),
  };
}

/** A short e-mail about one order: a heading, a few lines, the order page's link. */
function orderNote(
  ctx: AppContext,
  order: OrderForMail,
  mail: { subject: string; tag: string; lines: { html: string; text: string }[]; pageUrl: string | null },
): OutgoingMail {
  const number = orderNumberOf(order);
  const link = orderLink(mail.pageUrl);
  return {
    stream: "outbound",
    to: order.customerEmail,
    subject: `${mail.subject} (#${number})`,
    tag: mail.tag,
    html:
      `<h1>${escapeHtml(mail.subject)}</h1>` +
      `<p>Hi ${escapeHtml(order.customerName)}, this is about your ${escapeHtml(ctx.config.brand.name)} order <strong>#${number}</strong>.</p>` +
      mail.lines.map((line) => `<p>${line.html}</p>`).join("") +
      link.html +
      `<p>Questions? Reply to ${escapeHtml(ctx.config.brand.supportEmail)}.</p>`,
    text:
      `${mail.subject}\n\nHi ${order.customerName}, this is about your ${ctx.config.brand.name} order #${number}.\n\n` +
      mail.lines.map((line) => `${line.text}\n`).join("") +
      (link.text ? `\n${link.text}` : ""),
  };
}

const plain = (text: string) => ({ html: escapeHtml(text), text });

/** "Find my order": the link, sent to the order's own address only. */
export const orderLinkEmail = (ctx: AppContext, order: OrderForMail, pageUrl: string) =>
  orderNote(ctx, order, {
    subject: "Your order link",
    tag: "order-link",
    lines: [plain("Someone (we hope you) asked for the link to this order. Here it is; if it wasn't you, you can ignore this e-mail.")],
    pageUrl,
  });

export const SHIPPED_SUBJECT = "Your order has shipped";

export function orderShippedEmail(ctx: AppContext, order: OrderForMail, tracking: Tracking | null, pageUrl: string | null) {
  const lines = [plain("Your order is on its way.")];
  if (tracking) {
    const number = escapeHtml(tracking.number);
    lines.push({
      html:
        `Carrier: ${escapeHtml(tracking.carrier)}<br>Tracking number: ` +
        (tracking.url ? `<a href="${escapeHtml(tracking.url)}">${number}</a>` : number),
      text: `Carrier: ${tracking.carrier}\nTracking number: ${tracking.number}${tracking.url ? `\nTrack it: ${tracking.url}` : ""}`,
    });
  }
  return orderNote(ctx, order, { subject: SHIPPED_SUBJECT, tag: "order-shipped", lines, pageUrl });
}

export const orderDeliveredEmail = (ctx: AppContext, order: OrderForMail, pageUrl: string | null) =>
  orderNote(ctx, order, {
    subject: "Your order has been delivered",
    tag: "order-delivered",
    lines: [plain("The carrier says your order has arrived. We hope you love it.")],
    pageUrl,
  });

export const orderCancelledEmail = (ctx: AppContext, order: OrderForMail, pageUrl: string | null) =>
  orderNote(ctx, order, {
    subject: "Your order has been cancelled",
    tag: "order-cancelled",
    lines: [plain("Your order has been cancelled and will not ship. If you paid, any refund is shown on your order page.")],
    pageUrl,
  });

export const orderRefundedEmail = (ctx: AppContext, order: OrderForMail, amountCents: number, pageUrl: string | null) =>
  orderNote(ctx, order, {
    subject: "Your refund is on its way",
    tag: "order-refunded",
    lines: [plain(`We've refunded ${formatUsdCents(amountCents)} to your card. It can take 5 to 10 business days to appear.`)],
    pageUrl,
  });

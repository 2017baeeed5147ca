import { orderNumberOf } from "#server/contracts/checkout";
import { formatUsdCents } from "#server/contracts/money";
import { choiceLabel } from "#server/contracts/sizes-view";
import type { AppContext } from "#server/context";
import type { Order } from "#db/schema";
import type { OutgoingMail } from "#server/integrations/mail";
import { escapeHtml } from "#server/services/security/sanitize";

/** The customer's order confirmation, with the spec's order number. */
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
): OutgoingMail {
  // "Tee (Size M · Black)": the size and colour bought, for a product that has them (decision 0045).
  const named = (i: (typeof items)[number]) => {
    const chosen = choiceLabel(i.size ?? null, i.color ?? null);
    return chosen ? `${i.productName} (${chosen})` : i.productName;
  };
  const number = orderNumberOf(order);
  const brand = ctx.config.brand.name;
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
      `<p>Questions? Reply to ${escapeHtml(ctx.config.brand.supportEmail)}.</p>`,
    text:
      `Thank you, ${order.customerName}. Your order #${number} is confirmed.\n\n` +
      items.map((i) => `${named(i)} x ${i.quantity}: ${formatUsdCents(i.totalCents)}`).join("\n") +
      `\n\n${totals.map(([k, v]) => `${k}: ${formatUsdCents(v)}`).join("\n")}\n`,
  };
}

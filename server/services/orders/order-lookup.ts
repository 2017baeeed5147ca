import { orderNumberOf } from "#server/contracts/checkout";
import { ORDER_PAGE_MESSAGES, type OrderLookupInput } from "#server/contracts/order-page";
import type { AppContext } from "#server/context";
import { mailerFor } from "#server/integrations/mail";
import { customerKeyOf } from "#server/services/drop/customer-limits";
import { orderLinkEmail } from "#server/services/mail/order-emails";
import { AddressRateLimiter, RateLimiter } from "#server/services/security/rate-limit";
import { orderPageUrl } from "./order-page-token";
import { logWarning } from "#server/observability/log";

// A buyer asks once or twice; a script guessing numbers or flooding one mailbox is stopped.
const lookupsPerIp = new AddressRateLimiter("order-lookups-per-ip", 10, 15 * 60 * 1000);
const lookupsPerEmail = new RateLimiter("order-lookups-per-email", 3, 60 * 60 * 1000);

/** Test hook. */
export async function resetOrderLookupLimits(ctx: AppContext): Promise<void> {
  await lookupsPerIp.clear(ctx);
  await lookupsPerEmail.clear(ctx);
}

/**
 * "Find my order" (issue 25): e-mails the order page's link to the order's own address when an
 * order with that number belongs to that e-mail (one mailbox: decision 0037's folding), and tells
 * the caller nothing either way. Each network and each mailbox is allowed a few tries.
 */
export async function lookUpOrder(ctx: AppContext, input: OrderLookupInput, caller: { clientIp: string; origin: string }): Promise<void> {
  await lookupsPerIp.take(ctx, caller.clientIp, ORDER_PAGE_MESSAGES.lookupTooMany);
  const customerKey = customerKeyOf(input.email);
  await lookupsPerEmail.take(ctx, customerKey, ORDER_PAGE_MESSAGES.lookupTooMany);

  // One customer's paid orders (indexed by customer_key), the number compared as the spec shows it.
  const candidates = await ctx.db
    .selectFrom("orders")
    .selectAll()
    .where("customerKey", "=", customerKey)
    .where("paidAt", "is not", null)
    .orderBy("id", "desc")
    .limit(500)
    .execute();
  const order = candidates.find((row) => orderNumberOf(row) === input.orderNumber);
  if (!order) return;
  const url = await orderPageUrl(ctx, { id: order.id, siteOrigin: order.siteOrigin ?? caller.origin });
  if (!url) return;
  const result = await mailerFor(ctx).send(orderLinkEmail(ctx, order, url));
  if (result.status === "failed") logWarning(`Order ${order.id}: the order link e-mail failed: ${result.error}`);
}

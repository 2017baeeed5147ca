import type { OrderEmailKind } from "#server/contracts/order-emails";
import type { AppContext } from "#server/context";
import { mailerFor } from "#server/integrations/mail";
import { trackingFor } from "#server/services/fulfilment/tracking-links";
import { orderCancelledEmail, orderDeliveredEmail, orderRefundedEmail, orderShippedEmail } from "#server/services/mail/order-emails";
import { orderMailOn } from "#server/services/mail/order-mail-settings";
import { orderPageUrl } from "./order-page-token";
import { logWarning } from "#server/observability/log";

const CLAIM = {
  shipped: "shippedMailedAt",
  delivered: "deliveredMailedAt",
  cancelled: "cancelledMailedAt",
  refunded: "refundMailedAt",
} as const satisfies Record<OrderEmailKind, string>;

/**
 * The buyer's e-mail of one kind, once per order (issue 25): the order's `*_mailed_at` is claimed
 * by a conditional update first, so two status changes at once, in one process or two, send one.
 * A kind turned off in App Settings is not sent (nor claimed: turned on again, the next change
 * sends it). A send that fails gives the claim back, for the next change to try again.
 * Returns whether this call sent it.
 */
export async function sendOrderMail(ctx: AppContext, orderId: number, kind: OrderEmailKind): Promise<boolean> {
  if (!(await orderMailOn(ctx, kind))) return false;
  const column = CLAIM[kind];
  const now = ctx.clock.now().toISOString();
  const claimed = await ctx.db
    .updateTable("orders")
    .set({ [column]: now })
    .where("id", "=", orderId)
    .where(column, "is", null)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return false;
  const giveBack = () =>
    ctx.db
      .updateTable("orders")
      .set({ [column]: null })
      .where("id", "=", orderId)
      .where(column, "=", now)
      .execute();
  try {
    const order = await ctx.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirstOrThrow();
    const pageUrl = await orderPageUrl(ctx, order);
    let mail;
    if (kind === "shipped") {
      const label = await ctx.db
        .selectFrom("shippingLabels")
        .select(["carrier", "trackingNumber"])
        .where("orderId", "=", orderId)
        .where("status", "=", "created")
        .orderBy("id", "desc")
        .executeTakeFirst();
      mail = orderShippedEmail(ctx, order, label ? trackingFor(label.carrier, label.trackingNumber) : null, pageUrl);
    } else if (kind === "delivered") mail = orderDeliveredEmail(ctx, order, pageUrl);
    else if (kind === "cancelled") mail = orderCancelledEmail(ctx, order, pageUrl);
    else mail = orderRefundedEmail(ctx, order, order.refundAmountCents, pageUrl);
    // The claim above keeps two changes from both sending; the key keeps a try after a give-back
    // (or after the database went away) from sending what Postmark already accepted (decision 0063).
    const result = await mailerFor(ctx).send({ ...mail, idempotencyKey: `order-${orderId}-${kind}` });
    if (result.status === "failed") {
      logWarning(`Order ${orderId}: the ${kind} e-mail failed: ${result.error}`);
      await giveBack();
      return false;
    }
    return true;
  } catch (error) {
    await giveBack().catch(() => {});
    throw error;
  }
}

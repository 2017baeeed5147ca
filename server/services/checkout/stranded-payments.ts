import type { AppContext } from "#server/context";
import { completeHostedCheckout } from "./hosted-checkout";
import { confirmPayment } from "./order-confirmation";
import { logWarning } from "#server/observability/log";
import { raiseAlert } from "#server/services/alerts/alerts";

/**
 * Payments that succeeded but were never confirmed: no webhook arrived (or none is configured) and
 * the buyer closed the tab before the confirm call or the return from Stripe's page. Expiring such
 * an order finds the money taken and leaves it alone; the sweeper then confirms it here, so the
 * order, its e-mail and its label are not lost. A late payment's refund left half done by a crash
 * is finished the same way (the confirmation finishes it). Returns how many became paid.
 */
export async function confirmStrandedPayments(ctx: AppContext): Promise<number> {
  const stranded = await ctx.db
    .selectFrom("orders")
    .select(["id", "paymentIntentId", "checkoutSessionId"])
    .where("paidAt", "is", null)
    .where("paymentIntentId", "is not", null)
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("holdExpiresAt", "<=", ctx.clock.now().toISOString())]),
        // A late payment's refund that a crash left half done (decision 0038): finished, never paid.
        eb("refundStatus", "=", "pending"),
      ]),
    )
    .execute();
  let paid = 0;
  for (const order of stranded) {
    try {
      const outcome = order.checkoutSessionId
        ? await completeHostedCheckout(ctx, order.checkoutSessionId)
        : await confirmPayment(ctx, order.paymentIntentId!);
      if (outcome?.status === "paid") {
        paid++;
        // Found by the sweeper, not by the buyer's return or a webhook: the deployer should know why.
        await raiseAlert(
          ctx,
          "payment-stranded",
          `Order ${order.id}: its payment succeeded but was never confirmed; the sweeper confirmed it now (are Stripe's webhooks arriving?).`,
        );
      }
    } catch (error) {
      logWarning(`Order ${order.id}: checking its payment failed, will retry`, error);
      await raiseAlert(ctx, "payment-stranded", `Order ${order.id}: checking its stranded payment failed; the sweeper will retry.`);
    }
  }
  return paid;
}

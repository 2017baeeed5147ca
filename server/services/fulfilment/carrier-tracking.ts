import type { OrderStatus } from "#db/schema";
import type { AppContext } from "#server/context";
import { moveOrderStatus } from "#server/services/orders/admin-orders";

/** What a carrier's tracking status means for the order, and the statuses it may move it from. */
const MOVES: Partial<Record<string, { to: OrderStatus; from: readonly OrderStatus[] }>> = {
  TRANSIT: { to: "shipped", from: ["processing"] },
  DELIVERED: { to: "delivered", from: ["processing", "shipped"] },
};

export type TrackingOutcome = "moved" | "unchanged" | "unknown-label" | "ignored";

/**
 * The carrier's word about a label the store bought (issue 25): in transit, the order is shipped;
 * delivered, delivered. Only forward, by one conditional update (a repeated, late or out-of-order
 * event changes nothing: delivered never goes back to shipped, a cancelled order stays cancelled),
 * and the buyer's e-mail goes once per order, as an admin's change sends it.
 */
export async function applyCarrierTracking(ctx: AppContext, update: { trackingNumber: string; status: string }): Promise<TrackingOutcome> {
  const move = MOVES[update.status];
  if (!move) return "ignored";
  const label = await ctx.db
    .selectFrom("shippingLabels")
    .select("orderId")
    .where("trackingNumber", "=", update.trackingNumber)
    .where("status", "=", "created")
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (!label) return "unknown-label";
  return (await moveOrderStatus(ctx, label.orderId, move.to, move.from)) ? "moved" : "unchanged";
}

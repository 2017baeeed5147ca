import { orderNumberOf } from "#server/contracts/checkout";
import type { AppContext } from "#server/context";
import { NotFound } from "#server/errors";
import { renderPackingSlipPdf } from "#server/integrations/shipping";

/**
 * An order's packing slip as a PDF, for any order and whichever carrier printed its label: a
 * Shippo label is the carrier's own page, so the slip the local label carries (issue 23) is also
 * offered on its own. Lines in the order they were bought, each with its size and colour.
 */
export async function packingSlipPdf(ctx: AppContext, orderId: number): Promise<{ filename: string; pdf: Uint8Array<ArrayBuffer> }> {
  const order = await ctx.db.selectFrom("orders").select(["id", "paymentIntentId"]).where("id", "=", orderId).executeTakeFirst();
  if (!order) throw new NotFound("Order not found.");
  const lines = await ctx.db
    .selectFrom("orderItems")
    .select(["productName as name", "size", "color", "quantity"])
    .where("orderId", "=", orderId)
    .orderBy("id")
    .execute();
  const orderNumber = orderNumberOf(order);
  return { filename: `packing-slip-${orderNumber}.pdf`, pdf: new Uint8Array(await renderPackingSlipPdf({ orderNumber, lines })) };
}

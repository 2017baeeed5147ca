import { z } from "zod";
import { orderStatusSchema, refundSchema } from "#server/contracts/admin-orders";
import { getOrderDetail, listOrders, setOrderStatus } from "#server/services/orders/admin-orders";
import { buyLabelAgain } from "#server/services/fulfilment/fulfilment";
import { processRefund, refundEligibility } from "#server/services/orders/refunds";
import { adminProcedure, router } from "./init";
import { rowId } from "#server/contracts/row-id";

const orderId = z.object({ id: rowId() });

/**
 * Admin order, status and refund procedures (issue 5): the same services and shapes as the REST
 * doors under /api/admin/orders, for the Orders tab's widgets. Every one is admin-only.
 */
export const adminOrdersRouter = router({
  /** `{ orders }`, as GET /api/admin/orders. */
  list: adminProcedure.query(async ({ ctx }) => ({ orders: await listOrders(ctx.app) })),
  /** One order with items, shipping labels and refunds (the View dialog). */
  detail: adminProcedure.input(orderId).query(({ ctx, input }) => getOrderDetail(ctx.app, input.id)),
  setStatus: adminProcedure
    .input(orderId.extend(orderStatusSchema.shape))
    .mutation(({ ctx, input }) => setOrderStatus(ctx.app, input.id, input.status)),
  /** "Buy Label Again", as POST /api/admin/orders/{id}/label. */
  buyLabel: adminProcedure.input(orderId).mutation(({ ctx, input }) => buyLabelAgain(ctx.app, input.id)),
  refundEligibility: adminProcedure.input(orderId).query(({ ctx, input }) => refundEligibility(ctx.app, input.id)),
  refund: adminProcedure
    .input(orderId.extend(refundSchema.shape))
    .mutation(({ ctx, input }) =>
      processRefund(ctx.app, input.id, { reason: input.reason, refundShipping: input.refundShipping }, ctx.user.id),
    ),
});

import { orderStatusSchema, refundSchema } from "#server/contracts/admin-orders";
import { jsonError, pathId } from "#server/http/rest";
import { listOrders, setOrderStatus } from "#server/services/orders/admin-orders";
import { buyLabelAgain } from "#server/services/fulfilment/fulfilment";
import { readLabel } from "#server/services/fulfilment/labels";
import { packingSlipPdf } from "#server/services/fulfilment/packing-slip";
import { processRefund, refundEligibility } from "#server/services/orders/refunds";
import { route } from "#server/api/route";

export const adminOrderRoutes = [
  /**
   * GET /api/admin/orders → `{ orders }`, newest first, each with its items; money in dollars.
   * docs/spec.md §3 names the list response by its field ("has orders, each with items"), as it does for
   * `{ subscribers, count }` and `{ productId, images }`, so the answer is an object, not a bare
   * array; the count is `orders.length`. tRPC `admin.orders.list` answers the same shape.
   */
  route({
    method: "GET",
    path: "/api/admin/orders",
    guard: "admin",
    handle: async ({ ctx }) => ({ orders: await listOrders(ctx) }),
  }),

  /**
   * PATCH /api/admin/orders/{id}/status `{ status }` → the updated order (the list's order shape).
   * A status outside the five gives 400 naming the allowed values; an unknown order 404. The body
   * is checked before the order: a caller can fix a bad status, not a missing order.
   */
  route({
    method: "PATCH",
    path: "/api/admin/orders/:id/status",
    guard: "admin",
    input: orderStatusSchema,
    handle: ({ params, input, ctx }) => setOrderStatus(ctx, pathId(params.id, "Order not found."), input.status),
  }),

  /**
   * GET /api/admin/orders/{id}/refund-eligibility →
   * `{ eligible, eligibilityInfo: { message }, order: { total, shipping, customerName, createdAt,
   * refundStatus, refundAmount }, existingRefunds }` (docs/spec.md §3); 404 for an unknown order.
   */
  route({
    method: "GET",
    path: "/api/admin/orders/:id/refund-eligibility",
    guard: "admin",
    handle: ({ params, ctx }) => refundEligibility(ctx, pathId(params.id, "Order not found.")),
  }),

  /**
   * POST /api/admin/orders/{id}/refund `{ reason, refundShipping }` → 201 `{ refund: { id, refundId,
   * amount, status, reason } }`, recorded with the signed-in admin's id. An order that is already
   * refunded, being refunded or not paid gives 409 with the reason in words; so does a retry. A
   * refund cut off by a crash (pending for STALE_REFUND_CLAIM_MS) is finished instead.
   */
  route({
    method: "POST",
    path: "/api/admin/orders/:id/refund",
    guard: "admin",
    input: refundSchema,
    status: 201,
    handle: ({ params, input, ctx, user }) => processRefund(ctx, pathId(params.id, "Order not found."), input, user.id),
  }),

  /**
   * POST /api/admin/orders/{id}/label → 201 with the order's shipping label, bought again after the
   * automatic tries failed. 409 when the order has a label already, is unpaid, cancelled or
   * refunded, or when the carrier refuses again (its reason in the message).
   */
  route({
    method: "POST",
    path: "/api/admin/orders/:id/label",
    guard: "admin",
    status: 201,
    handle: ({ params, ctx }) => buyLabelAgain(ctx, pathId(params.id, "Order not found.")),
  }),

  /**
   * GET /api/admin/orders/{id}/packing-slip → the order's packing slip (application/pdf, shown in
   * the browser): its number and each line's quantity, name, size and colour; 404 for an unknown order.
   */
  route({
    method: "GET",
    path: "/api/admin/orders/:id/packing-slip",
    guard: "admin",
    handle: async ({ params, ctx }) => {
      const { filename, pdf } = await packingSlipPdf(ctx, pathId(params.id, "Order not found."));
      return new Response(pdf, {
        headers: { "Content-Type": "application/pdf", "Content-Disposition": `inline; filename="${filename}"` },
      });
    },
  }),

  /** GET /api/admin/labels/{file}: a locally generated shipping label, for admins only. */
  route({
    method: "GET",
    path: "/api/admin/labels/:file",
    guard: "admin",
    handle: async ({ params, ctx }) => {
      const name = params.file ?? "";
      const pdf = await readLabel(ctx, name);
      if (!pdf) return jsonError(404, "Label not found.");
      return new Response(pdf, {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": `inline; filename="${name}"`,
        },
      });
    },
  }),
];

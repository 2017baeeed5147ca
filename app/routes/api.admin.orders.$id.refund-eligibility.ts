import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, pathId, rest } from "../../server/http/rest";
import { refundEligibility } from "../../server/services/refunds";

/**
 * GET /api/admin/orders/{id}/refund-eligibility →
 * `{ eligible, eligibilityInfo: { message }, order: { total, shipping, customerName, createdAt,
 * refundStatus, refundAmount }, existingRefunds }` (spec §3); 404 for an unknown order.
 */
export const loader = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  const id = pathId(params.id, "Order not found.");
  const eligibility = await refundEligibility(ctx, id);
  return Response.json(eligibility, { headers: { "Cache-Control": "private, no-store" } });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});

import { refundSchema } from "../../server/contracts/admin-orders";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, pathId, rest } from "../../server/http/rest";
import { processRefund } from "../../server/services/refunds";

/**
 * POST /api/admin/orders/{id}/refund `{ reason, refundShipping }` → 201 `{ refund: { id, refundId,
 * amount, status, reason } }`, recorded with the signed-in admin's id. An order that is already
 * refunded, being refunded or not paid gives 409 with the reason in words; so does a retry.
 */
export const action = rest(async ({ request, params, ctx }) => {
  const admin = await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = await parseJsonBody(request, refundSchema);
  const id = pathId(params.id, "Order not found.");
  const result = await processRefund(ctx, id, input, admin.id);
  return Response.json(result, { status: 201, headers: { "Cache-Control": "no-store" } });
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, pathId, rest } from "../../server/http/rest";
import { buyLabelAgain } from "../../server/services/fulfilment";

/**
 * POST /api/admin/orders/{id}/label → 201 with the order's shipping label, bought again after the
 * automatic tries failed. 409 when the order has a label already, is unpaid, cancelled or
 * refunded, or when the carrier refuses again (its reason in the message).
 */
export const action = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const label = await buyLabelAgain(ctx, pathId(params.id, "Order not found."));
  return Response.json(label, { status: 201, headers: { "Cache-Control": "no-store" } });
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

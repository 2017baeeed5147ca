import { orderStatusSchema } from "../../server/contracts/admin-orders";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, pathId, rest } from "../../server/http/rest";
import { setOrderStatus } from "../../server/services/admin-orders";

/**
 * PATCH /api/admin/orders/{id}/status `{ status }` → the updated order (the list's order shape).
 * A status outside the five gives 400 naming the allowed values; an unknown order 404.
 */
export const action = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "PATCH") return methodNotAllowed(["PATCH"]);
  // The body is checked before the order: a caller can fix a bad status, not a missing order.
  const { status } = await parseJsonBody(request, orderStatusSchema);
  const id = pathId(params.id, "Order not found.");
  const order = await setOrderStatus(ctx, id, status);
  return Response.json(order, { headers: { "Cache-Control": "no-store" } });
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["PATCH"]);
});

import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, rest } from "../../server/http/rest";
import { listOrders } from "../../server/services/admin-orders";

/**
 * GET /api/admin/orders → `{ orders }`, newest first, each with its items; money in dollars.
 * Spec §3 names the list response by its field ("has orders, each with items"), as it does for
 * `{ subscribers, count }` and `{ productId, images }`, so the answer is an object, not a bare
 * array; the count is `orders.length`. tRPC `admin.orders.list` answers the same shape.
 */
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return Response.json({ orders: await listOrders(ctx) }, { headers: { "Cache-Control": "private, no-store" } });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});

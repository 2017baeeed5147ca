import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { listOrders } from "#server/services/orders/admin-orders";
import { requireAdminPage } from "#server/http/auth";

/** /admin/orders. Loaders run in parallel with the layout's, so this one checks the admin itself. */
export async function ordersPageLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  return { orders: await listOrders(ctx), loadedAt: Date.now() };
}

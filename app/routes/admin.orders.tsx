import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "~/components/admin/admin-section";
import { OrdersPanel } from "~/components/admin/orders/orders-panel";
import { getAppContext } from "../../server/boot";
import { requireAdminPage } from "../../server/http/auth";
import { listOrders } from "../../server/services/admin-orders";

export const meta: MetaFunction = () => [{ title: "Order Management · Admin Dashboard" }];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export async function loader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  return { orders: await listOrders(ctx), loadedAt: Date.now() };
}

export default function AdminOrdersTab() {
  const { orders, loadedAt } = useLoaderData<typeof loader>();
  return (
    <AdminSection heading="Order Management">
      <OrdersPanel initialOrders={orders} loadedAt={loadedAt} />
    </AdminSection>
  );
}

export { ErrorBoundary } from "~/components/error-pages";

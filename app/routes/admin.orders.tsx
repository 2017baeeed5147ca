import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { OrdersPanel } from "#app/components/admin/orders/orders-panel";
import { ordersPageLoader } from "#server/http/doors/admin-orders-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Order Management", matches)];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export const loader = (args: LoaderFunctionArgs) => ordersPageLoader(args);

export default function AdminOrdersTab() {
  const { orders, loadedAt } = useLoaderData<typeof loader>();
  return (
    <AdminSection heading="Order Management">
      <OrdersPanel initialOrders={orders} loadedAt={loadedAt} />
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";

import type { MetaFunction } from "@remix-run/node";
import { AdminSection, OverviewCounts } from "~/components/admin/admin-section";

export const meta: MetaFunction = () => [{ title: "Order Management · Admin Dashboard" }];

export default function AdminTab() {
  return (
    <AdminSection heading="Order Management">
      <OverviewCounts />
      <p className="text-sm text-muted-foreground">Orders, status changes and refunds: arrive with the back-office issues.</p>
    </AdminSection>
  );
}

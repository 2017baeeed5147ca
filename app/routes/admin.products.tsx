import type { MetaFunction } from "@remix-run/node";
import { AdminSection, OverviewCounts } from "~/components/admin/admin-section";

export const meta: MetaFunction = () => [{ title: "Product Management · Admin Dashboard" }];

export default function AdminTab() {
  return (
    <AdminSection heading="Product Management">
      <OverviewCounts />
      <p className="text-sm text-muted-foreground">Products and their images: arrives with the back-office issues.</p>
    </AdminSection>
  );
}

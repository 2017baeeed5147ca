import type { MetaFunction } from "@remix-run/node";
import { AdminSection, OverviewCounts } from "~/components/admin/admin-section";

export const meta: MetaFunction = () => [{ title: "Account Settings · Admin Dashboard" }];

export default function AdminTab() {
  return (
    <AdminSection heading="Account Settings">
      <OverviewCounts />
      <p className="text-sm text-muted-foreground">Password change and the shipping test: arrive with the back-office issues.</p>
    </AdminSection>
  );
}

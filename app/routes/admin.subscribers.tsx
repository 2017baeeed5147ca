import type { MetaFunction } from "@remix-run/node";
import { AdminSection, OverviewCounts } from "~/components/admin/admin-section";

export const meta: MetaFunction = () => [{ title: "Subscriber Management · Admin Dashboard" }];

export default function AdminTab() {
  return (
    <AdminSection heading="Subscriber Management">
      <OverviewCounts />
      <p className="text-sm text-muted-foreground">The subscriber list, its export and bulk e-mail arrive with the back-office issues.</p>
    </AdminSection>
  );
}

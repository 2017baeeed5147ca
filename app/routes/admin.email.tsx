import type { MetaFunction } from "@remix-run/node";
import { AdminSection, OverviewCounts } from "~/components/admin/admin-section";

export const meta: MetaFunction = () => [{ title: "Email Subscribers · Admin Dashboard" }];

export default function AdminTab() {
  return (
    <AdminSection heading="Email Subscribers">
      <OverviewCounts />
      <p className="text-sm text-muted-foreground">Compose and send e-mail to every subscriber: arrives with the back-office issues.</p>
    </AdminSection>
  );
}

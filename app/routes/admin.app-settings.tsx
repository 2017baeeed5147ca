import type { MetaFunction } from "@remix-run/node";
import { AdminSection, OverviewCounts } from "~/components/admin/admin-section";

export const meta: MetaFunction = () => [{ title: "App Configuration · Admin Dashboard" }];

export default function AdminTab() {
  return (
    <AdminSection heading="App Configuration">
      <OverviewCounts />
      <p className="text-sm text-muted-foreground">Countdown, background media and homepage texts: arrive with the back-office issues.</p>
    </AdminSection>
  );
}

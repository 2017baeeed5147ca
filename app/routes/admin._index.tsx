import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { DashboardPanel } from "#app/components/admin/dashboard/dashboard-panel";
import { PreDropChecklistPanel } from "#app/components/admin/drops/pre-drop-checklist";
import { dashboardLoader } from "#server/http/doors/dashboard-door";
import { testEmailAction } from "#server/http/doors/test-email-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Dashboard", matches)];

/**
 * /admin: the dashboard (issue 14). A GET form picks the range (?range=today|7d|30d|custom&from&to
 * &includeTest=1), so it works without JavaScript. Loaders run in parallel with the layout's, so
 * this one checks the admin itself.
 */
/** The checklist's "Send a test e-mail" posts here (`/admin?index`). */
export const action = (args: ActionFunctionArgs) => testEmailAction(args);

export const loader = (args: LoaderFunctionArgs) => dashboardLoader(args);

export default function AdminDashboardTab() {
  const { dashboard, loadedAt, checklist } = useLoaderData<typeof loader>();
  return (
    <AdminSection heading="Dashboard">
      <div className="report-page space-y-6">
        <PreDropChecklistPanel checklist={checklist} />
        <DashboardPanel initial={dashboard} loadedAt={loadedAt} />
      </div>
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";

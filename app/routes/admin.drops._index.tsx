import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { DropList } from "#app/components/admin/drops/drop-list";
import { dropListLoader } from "#server/http/doors/drop-reports-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Drop reports", matches)];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export const loader = (args: LoaderFunctionArgs) => dropListLoader(args);

export default function AdminDropReports() {
  const { drops } = useLoaderData<typeof loader>();
  return (
    <AdminSection heading="Drop reports">
      <p className="text-sm text-muted-foreground">One report per countdown: how the drop sold, the waiting room, early access.</p>
      <DropList drops={drops} />
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";

import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { AdminSection } from "#app/components/admin/admin-section";
import { DropPanel } from "#app/components/admin/drop/drop-panel";
import { adminDropLoader } from "#server/http/doors/admin-drop-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Drop", matches)];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export const loader = (args: LoaderFunctionArgs) => adminDropLoader(args);

export default function AdminDropTab() {
  const { room, loadedAt } = useLoaderData<typeof loader>();
  return (
    <AdminSection heading="Waiting Room">
      <DropPanel initial={room} loadedAt={loadedAt} />
    </AdminSection>
  );
}

export { ErrorBoundary } from "#app/components/error-pages";

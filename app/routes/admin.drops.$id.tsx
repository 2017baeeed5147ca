import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DropReportView } from "#app/components/admin/drops/drop-report-view";
import printStylesheet from "#app/styles/drop-report-print.css?url";
import { dropReportLoader } from "#server/http/doors/drop-reports-door";
import { pageTitle } from "#app/lib/page-title";

export const meta: MetaFunction = ({ matches }) => [pageTitle("Drop report", matches)];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: printStylesheet, media: "print" }];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export const loader = (args: LoaderFunctionArgs) => dropReportLoader(args);

export default function AdminDropReport() {
  const { report } = useLoaderData<typeof loader>();
  return <DropReportView report={report} />;
}

export { ErrorBoundary } from "#app/components/error-pages";

import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { DropReportView } from "~/components/admin/drops/drop-report-view";
import printStylesheet from "~/styles/drop-report-print.css?url";
import { getAppContext } from "../../server/boot";
import { requireAdminPage } from "../../server/http/auth";
import { pathId } from "../../server/http/rest";
import { dropFunnel } from "../../server/services/drop-funnel";
import { dropReport, includeTestFrom } from "../../server/services/drop-report";
import { DROP_MESSAGES } from "../../server/services/drops";

export const meta: MetaFunction = () => [{ title: "Drop report · Admin Dashboard" }];

export const links: LinksFunction = () => [{ rel: "stylesheet", href: printStylesheet, media: "print" }];

/** Loaders run in parallel with the layout's, so this one checks the admin itself. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const id = pathId(params.id, DROP_MESSAGES.notFound);
  const includeTest = includeTestFrom(new URL(request.url).searchParams.get("includeTest"));
  return { report: await dropReport(ctx, id, { includeTest }, dropFunnel) };
}

export default function AdminDropReport() {
  const { report } = useLoaderData<typeof loader>();
  return <DropReportView report={report} />;
}

export { ErrorBoundary } from "~/components/error-pages";

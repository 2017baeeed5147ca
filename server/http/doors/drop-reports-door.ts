import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { dropFunnel } from "#server/services/reporting/drop-funnel";
import { dropReport, includeTestFrom } from "#server/services/reporting/drop-report";
import { DROP_MESSAGES, listDrops } from "#server/services/drop/drops";
import { requireAdminPage } from "#server/http/auth";
import { pathId } from "#server/http/rest";
import { NotFound } from "#server/errors";

/*
 * /admin/drops and /admin/drops/{id}: the drop reports. Loaders run in parallel with the
 * layout's, so each checks the admin itself.
 */

/** One row per countdown. */
export async function dropListLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  return { drops: await listDrops(ctx) };
}

/** One drop's report (?includeTest=1 counts the test orders too); an unknown id is a 404. */
export async function dropReportLoader({ request, params }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const includeTest = includeTestFrom(new URL(request.url).searchParams.get("includeTest"));
  try {
    return { report: await dropReport(ctx, pathId(params.id, DROP_MESSAGES.notFound), { includeTest }, dropFunnel) };
  } catch (error) {
    // A stale link or a typed id: the admin's not-found page, not a failure.
    if (error instanceof NotFound) throw data(error.message, { status: 404 });
    throw error;
  }
}

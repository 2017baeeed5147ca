import type { LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { getDashboard } from "#server/services/reporting/dashboard";
import { preDropChecklist } from "#server/services/drop/pre-drop-checklist";
import { requireAdminPage } from "#server/http/auth";

/**
 * /admin: the dashboard (issue 14). A GET form picks the range (?range=today|7d|30d|custom&from&to
 * &includeTest=1), so it works without JavaScript. Loaders run in parallel with the layout's, so
 * this one checks the admin itself. The checklist's test e-mail posts to test-email-door.ts.
 */
export async function dashboardLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  await requireAdminPage(ctx, request);
  const params = new URL(request.url).searchParams;
  const dashboard = await getDashboard(ctx, {
    range: params.get("range"),
    from: params.get("from"),
    to: params.get("to"),
    includeTest: params.get("includeTest") === "1",
  });
  return { dashboard, loadedAt: Date.now(), checklist: await preDropChecklist(ctx) };
}

import { pathId } from "#server/http/rest";
import { dropFunnel } from "#server/services/reporting/drop-funnel";
import { dropReport, includeTestFrom } from "#server/services/reporting/drop-report";
import { dropCsvFilename, dropReportCsv } from "#server/services/reporting/drop-report-csv";
import { DROP_MESSAGES, listDrops } from "#server/services/drop/drops";
import { preDropChecklist } from "#server/services/drop/pre-drop-checklist";
import { sendTestEmail } from "#server/services/mail/test-email";
import { route } from "#server/api/route";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";

/** The drop report and the pre-drop checklist (issue 14 parts 2–3, decision 0026). */
export const adminDropRoutes = [
  /** GET /api/admin/drops → `[{ id, countdownAt, from, to, state }]`, newest T-0 first. */
  route({
    method: "GET",
    path: "/api/admin/drops",
    guard: "admin",
    handle: ({ ctx }) => listDrops(ctx),
  }),

  /**
   * GET /api/admin/drops/{id}[?includeTest=1] → the report; GET /api/admin/drops/{id}.csv → the
   * same as text/csv (a download). An unknown drop is a 404; a bad includeTest a 400.
   */
  route({
    method: "GET",
    path: "/api/admin/drops/:id",
    guard: "admin",
    handle: async ({ ctx, params, request }) => {
      const raw = params.id ?? "";
      const csv = raw.toLowerCase().endsWith(".csv");
      const id = pathId(csv ? raw.slice(0, -4) : raw, DROP_MESSAGES.notFound);
      const includeTest = includeTestFrom(new URL(request.url).searchParams.get("includeTest"));
      const report = await dropReport(ctx, id, { includeTest }, dropFunnel);
      if (!csv) return report;
      return new Response(dropReportCsv(report), {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${dropCsvFilename(report)}"`,
        },
      });
    },
  }),

  /** GET /api/admin/pre-drop-checklist → `{ countdownAt, ahead, items: [{ id, label, level, reason, fixHref, fixLabel }] }`. */
  route({
    method: "GET",
    path: "/api/admin/pre-drop-checklist",
    guard: "admin",
    handle: ({ ctx }) => preDropChecklist(ctx),
  }),

  /** POST /api/admin/test-email → `{ message }`: a test e-mail to the signed-in admin (409 when the provider refuses it). */
  route({
    method: "POST",
    path: "/api/admin/test-email",
    guard: "admin",
    headers: NO_STORE_HEADERS,
    handle: ({ ctx, user }) => sendTestEmail(ctx, user.email),
  }),
];

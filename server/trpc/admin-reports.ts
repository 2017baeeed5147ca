import { z } from "zod";
import { getDashboard } from "#server/services/reporting/dashboard";
import { subscriberReport, summaryReport } from "#server/services/reporting/rest";
import { adminProcedure, router } from "./init";

const day = z.string().max(20).nullish();

/** The dashboard and the reports, over the same services as GET /api/admin/reports/*. Admin-only. */
export const adminReportsRouter = router({
  /** What /admin renders: `{ range, previous, summary, previousSummary, subscribers, topProducts, … }`. */
  dashboard: adminProcedure
    .input(z.object({ range: z.string().max(10).nullish(), from: day, to: day, includeTest: z.boolean().optional() }))
    .query(({ ctx, input }) => getDashboard(ctx.app, input)),
  summary: adminProcedure
    .input(z.object({ from: day, to: day, includeTest: z.boolean().optional() }))
    .query(({ ctx, input }) => summaryReport(ctx.app, { ...input, includeTest: input.includeTest ? "1" : "0" })),
  subscribers: adminProcedure.input(z.object({ from: day, to: day })).query(({ ctx, input }) => subscriberReport(ctx.app, input)),
});

import { z } from "zod";
import { dropFunnel } from "#server/services/reporting/drop-funnel";
import { dropReport } from "#server/services/reporting/drop-report";
import { listDrops } from "#server/services/drop/drops";
import { preDropChecklist } from "#server/services/drop/pre-drop-checklist";
import { sendTestEmail } from "#server/services/mail/test-email";
import { adminProcedure, router } from "./init";
import { rowId } from "#server/contracts/row-id";

/** The drop report and the pre-drop checklist: the same services as the /api/admin/drops doors. */
export const adminDropsRouter = router({
  list: adminProcedure.query(({ ctx }) => listDrops(ctx.app)),
  report: adminProcedure
    .input(z.object({ id: rowId(), includeTest: z.boolean().optional() }))
    .query(({ ctx, input }) => dropReport(ctx.app, input.id, { includeTest: input.includeTest }, dropFunnel)),
  checklist: adminProcedure.query(({ ctx }) => preDropChecklist(ctx.app)),
  sendTestEmail: adminProcedure.mutation(({ ctx }) => sendTestEmail(ctx.app, ctx.user.email)),
});

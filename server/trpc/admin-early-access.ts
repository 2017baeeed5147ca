import { earlyAccessIdSchema, earlyMinutesSchema } from "#server/contracts/early-access";
import { earlyAccessOverview, revokeEarlyAccessLink, setEarlyMinutes } from "#server/services/drop/early-access";
import { adminProcedure, router } from "./init";

/**
 * The subscribers screen's early-access panel (decision 0020). Making a link goes through REST
 * (POST /api/admin/early-access): its URL is built from the request's origin.
 */
export const adminEarlyAccessRouter = router({
  overview: adminProcedure.query(({ ctx }) => earlyAccessOverview(ctx.app)),
  revoke: adminProcedure.input(earlyAccessIdSchema).mutation(({ ctx, input }) => revokeEarlyAccessLink(ctx.app, input.id)),
  setMinutes: adminProcedure.input(earlyMinutesSchema).mutation(({ ctx, input }) => setEarlyMinutes(ctx.app, input.earlyMinutes)),
});

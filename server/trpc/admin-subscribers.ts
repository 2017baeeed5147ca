import { z } from "zod";
import { campaignIdSchema, previewEmailSchema, type SubscriberPageQuery } from "#server/contracts/admin-subscribers";
import { exportSubscribers, getEmailTemplate, listSubscribers } from "#server/services/mail/admin-subscribers";
import { getCampaign, listCampaigns, previewCampaign } from "#server/services/mail/campaigns";
import { adminProcedure, router } from "./init";

/**
 * Admin subscriber, export, template and campaign-progress procedures (issue 6), over the same
 * services as the REST doors. Sending and resuming go through REST (POST /api/admin/send-email,
 * /api/admin/campaigns/{id}/resume) because the links in the mail are built from the origin of
 * the request, which a tRPC procedure does not see.
 */
export const adminSubscribersRouter = router({
  /**
   * `{ subscribers, count, page, pageSize, pages }` for an optional `{ page, pageSize }`, as
   * GET /api/admin/subscribers. The input is only typed here; the service checks it with the
   * contract, so a bad value is the same readable BAD_REQUEST message as the REST 400.
   */
  list: adminProcedure.input(z.custom<SubscriberPageQuery | undefined>()).query(({ ctx, input }) => listSubscribers(ctx.app, input)),
  /** `{ count, filename, downloadUrl }`: writes a file, so a mutation. */
  export: adminProcedure.mutation(({ ctx }) => exportSubscribers(ctx.app)),
  /** `{ template }`. */
  template: adminProcedure.query(({ ctx }) => getEmailTemplate(ctx.app)),
  /** The message as it will be sent. A mutation only because the content is too long for a URL. */
  preview: adminProcedure.input(previewEmailSchema).mutation(({ ctx, input }) => previewCampaign(ctx.app, input)),
  campaign: adminProcedure.input(campaignIdSchema).query(({ ctx, input }) => getCampaign(ctx.app, input.id)),
  campaigns: adminProcedure.query(({ ctx }) => listCampaigns(ctx.app)),
});

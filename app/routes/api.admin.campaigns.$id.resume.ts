import { requireAdminApi } from "../../server/http/auth";
import { prefersAsync, sendResultResponse } from "../../server/http/campaign-door";
import { siteOrigin } from "../../server/http/site-origin";
import { methodNotAllowed, pathId, rest } from "../../server/http/rest";
import { resumeCampaign } from "../../server/services/campaigns";

/**
 * POST /api/admin/campaigns/{id}/resume → as send-email: mails the recipients a failed run left
 * pending or failed, never one already sent. 409 when it is sent already or running right now.
 */
export const action = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const id = pathId(params.id, "Campaign not found.");
  const background = prefersAsync(request);
  const result = await resumeCampaign(ctx, id, { origin: siteOrigin(request, ctx.config), background });
  return sendResultResponse(result, background);
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

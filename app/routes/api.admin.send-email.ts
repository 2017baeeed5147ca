import { composeEmailSchema } from "../../server/contracts/admin-subscribers";
import { requireAdminApi } from "../../server/http/auth";
import { prefersAsync, sendResultResponse } from "../../server/http/campaign-door";
import { siteOrigin } from "../../server/http/site-origin";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { sendCampaign } from "../../server/services/campaigns";

/**
 * POST /api/admin/send-email `{ subject, htmlContent }` → `{ message, campaignId, status }`
 * ("Email sent to N subscribers"). Either field missing: 400 "Please provide both subject and
 * content for your email". With `Prefer: respond-async`: 202 at once, progress at the Location.
 */
export const action = rest(async ({ request, ctx }) => {
  const admin = await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = await parseJsonBody(request, composeEmailSchema);
  const background = prefersAsync(request);
  const result = await sendCampaign(ctx, input, admin.id, { origin: siteOrigin(request, ctx.config), background });
  return sendResultResponse(result, background);
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, pathId, rest } from "../../server/http/rest";
import { getCampaign } from "../../server/services/campaigns";

/**
 * GET /api/admin/campaigns/{id} → `{ id, subject, status, total, sent, failed, skipped, pending,
 * createdAt, finishedAt, createdBy, lastError }`: a send's progress, polled while it runs.
 */
export const loader = rest(async ({ request, params, ctx }) => {
  await requireAdminApi(ctx, request);
  const id = pathId(params.id, "Campaign not found.");
  return Response.json(await getCampaign(ctx, id), { headers: { "Cache-Control": "no-store" } });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});

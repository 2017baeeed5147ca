import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, rest } from "../../server/http/rest";
import { getCountdownSetting } from "../../server/services/admin-settings";

/**
 * GET /api/admin/settings/countdown_date → `{ key, value, updatedAt }`: the stored target (ISO,
 * UTC), or the spec's default with `updatedAt: null` when the admin never set one. The underscore
 * sits inside the segment, so flat routes keep it literal (tests/integration/admin-settings checks).
 */
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return Response.json(await getCountdownSetting(ctx), { headers: { "Cache-Control": "private, no-store" } });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});

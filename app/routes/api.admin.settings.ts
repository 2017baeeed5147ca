import { settingUpdateSchema } from "../../server/contracts/admin-settings";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { updateSetting } from "../../server/services/admin-settings";

/**
 * POST /api/admin/settings `{ key, value }` → `{ key, value, updatedAt }`. For countdown_date the
 * value is the ISO instant of the target (with its offset); days before today in New York are
 * refused. Other keys go through their own rules (URLs checked, countdown HTML sanitised).
 * Public GET /api/countdown-date is not cached, so it answers the new date at once.
 */
export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { key, value } = await parseJsonBody(request, settingUpdateSchema);
  return Response.json(await updateSetting(ctx, key, value), { headers: { "Cache-Control": "no-store" } });
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

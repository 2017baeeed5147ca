import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, rest } from "../../server/http/rest";
import { exportSubscribers } from "../../server/services/admin-subscribers";

/**
 * GET /api/admin/export-subscribers → `{ count, filename, downloadUrl }`. The CSV is written
 * first; `downloadUrl` (admin-only, GET /api/admin/exports/{file}) is where the browser fetches it.
 */
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return Response.json(await exportSubscribers(ctx), { headers: { "Cache-Control": "no-store" } });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});

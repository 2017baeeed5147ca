import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, rest } from "../../server/http/rest";
import { listSubscribers } from "../../server/services/admin-subscribers";

/** GET /api/admin/subscribers → `{ subscribers: [{ id, email, subscribedAt }], count }`, newest first. */
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return Response.json(await listSubscribers(ctx), { headers: { "Cache-Control": "private, no-store" } });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});

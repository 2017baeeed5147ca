import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, rest } from "../../server/http/rest";
import { getEmailTemplate } from "../../server/services/admin-subscribers";

/** GET /api/admin/email-template → `{ template }`: the launch-announcement HTML. */
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return Response.json(await getEmailTemplate(ctx), { headers: { "Cache-Control": "private, no-store" } });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});

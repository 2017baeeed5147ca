import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, rest } from "../../server/http/rest";
import { listSubscribers } from "../../server/services/admin-subscribers";

/**
 * GET /api/admin/subscribers?page=2&pageSize=50 → `{ subscribers: [{ id, email, subscribedAt }],
 * count, page, pageSize, pages }`, newest first. `count` is every active subscriber (spec §7);
 * `subscribers` is one page of them. Without parameters: page 1 of 100. `page` is a whole number
 * from 1, `pageSize` from 1 to 500; anything else is a 400 `{ message, errors: { page | pageSize } }`.
 * A page past the end answers an empty `subscribers` with the real `count` and `pages`.
 */
export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  const params = new URL(request.url).searchParams;
  const list = await listSubscribers(ctx, { page: params.get("page"), pageSize: params.get("pageSize") });
  return Response.json(list, { headers: { "Cache-Control": "private, no-store" } });
});

export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["GET"]);
});

import { musicUrlSchema } from "../../server/contracts/admin-settings";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { setBackgroundMusic } from "../../server/services/admin-settings";

/** POST /api/admin/background-music `{ musicUrl }` → `{ musicUrl }` (an http(s) URL or a site path). */
export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { musicUrl } = await parseJsonBody(request, musicUrlSchema);
  const saved = await setBackgroundMusic(ctx, musicUrl);
  return Response.json({ musicUrl: saved.value }, { headers: { "Cache-Control": "no-store" } });
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

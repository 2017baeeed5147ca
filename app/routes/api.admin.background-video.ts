import { videoUrlSchema } from "../../server/contracts/admin-settings";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { setBackgroundVideo } from "../../server/services/admin-settings";

/** POST /api/admin/background-video `{ videoUrl }` → `{ videoUrl }` (an http(s) URL or a site path). */
export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { videoUrl } = await parseJsonBody(request, videoUrlSchema);
  const saved = await setBackgroundVideo(ctx, videoUrl);
  return Response.json({ videoUrl: saved.value }, { headers: { "Cache-Control": "no-store" } });
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

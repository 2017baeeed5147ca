import { textSchemaFor } from "../../server/contracts/admin-settings";
import { requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { setText } from "../../server/services/admin-settings";

/** POST /api/admin/homepage-subtitle `{ text }` → `{ text }` as stored (plain text). */
export const action = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const { text } = await parseJsonBody(request, textSchemaFor("homepage_subtitle"));
  const saved = await setText(ctx, "homepage_subtitle", text);
  return Response.json({ text: saved.value }, { headers: { "Cache-Control": "no-store" } });
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

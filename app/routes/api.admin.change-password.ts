import { changePasswordApiSchema } from "../../server/contracts/admin-settings";
import { authenticate, requireAdminApi } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { changePassword } from "../../server/services/account";

/**
 * POST /api/admin/change-password `{ currentPassword, newPassword, confirmPassword? }` →
 * `{ message: "Password updated" }`. A wrong current password is a 400 on `currentPassword`. The
 * caller's own session stays signed in; every other session of the user is signed out.
 */
export const action = rest(async ({ request, ctx }) => {
  const admin = await requireAdminApi(ctx, request);
  if (request.method !== "POST") return methodNotAllowed(["POST"]);
  const input = await parseJsonBody(request, changePasswordApiSchema);
  const { token } = await authenticate(ctx, request);
  return Response.json(await changePassword(ctx, admin, token, input), { headers: { "Cache-Control": "no-store" } });
});

export const loader = rest(async ({ request, ctx }) => {
  await requireAdminApi(ctx, request);
  return methodNotAllowed(["POST"]);
});

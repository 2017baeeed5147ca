import { authenticate } from "../../server/http/auth";
import { jsonError, rest } from "../../server/http/rest";

/** GET /api/user: the signed-in user, or 401 when nobody is signed in. */
export const loader = rest(async ({ request, ctx }) => {
  const { user, setCookie } = await authenticate(ctx, request);
  const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
  if (!user) return jsonError(401, "Not signed in.", {}, headers);
  return Response.json(user, { headers });
});

import { registerSchema } from "../../server/contracts/auth";
import { authenticate, sessionCookieHeader } from "../../server/http/auth";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { createSession } from "../../server/services/sessions";
import { register } from "../../server/services/users";

export const loader = () => methodNotAllowed(["POST"]);

/**
 * POST /api/register {username, password, email, isAdmin?}: creates an ordinary user and signs
 * them in. Only an admin may create another admin; the admin's own session is kept.
 */
export const action = rest(async ({ request, ctx }) => {
  const { user: actor } = await authenticate(ctx, request);
  const input = await parseJsonBody(request, registerSchema);
  const user = await register(ctx, input, actor);
  if (actor) return Response.json(user, { status: 201 });
  const { token, expiresAt } = await createSession(ctx, user.id);
  return Response.json(user, { status: 201, headers: { "Set-Cookie": await sessionCookieHeader(ctx, request, token, expiresAt) } });
});

import { loginSchema } from "../../server/contracts/auth";
import { sessionCookieHeader } from "../../server/http/auth";
import { clientIpOf } from "../../server/http/client-ip";
import { methodNotAllowed, parseJsonBody, rest } from "../../server/http/rest";
import { login } from "../../server/services/users";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/login {username, password}: the user, with the session cookie set. */
export const action = rest(async ({ request, context, ctx }) => {
  const input = await parseJsonBody(request, loginSchema);
  const { user, token, expiresAt } = await login(ctx, input, clientIpOf(context));
  return Response.json(user, { headers: { "Set-Cookie": await sessionCookieHeader(ctx, request, token, expiresAt) } });
});

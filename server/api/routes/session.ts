import { jsonAnswer } from "#server/http/json-answer";
import { loginSchema, registerSchema } from "#server/contracts/auth";
import { authenticate, sessionCookieHeader, signOut } from "#server/http/auth";
import { clientIpOf } from "#server/http/requests/client-ip";
import { jsonError } from "#server/http/rest";
import { createSession } from "#server/services/accounts/sessions";
import { login, register } from "#server/services/accounts/users";
import { route } from "#server/api/route";

export const sessionRoutes = [
  /** GET /api/user: the signed-in user, or 401 when nobody is signed in. */
  route({
    method: "GET",
    path: "/api/user",
    guard: "public",
    personal: true,
    handle: async ({ request, ctx }) => {
      const { user, setCookie } = await authenticate(ctx, request);
      const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
      if (!user) return jsonError(401, "Not signed in.", {}, headers);
      return jsonAnswer(user, { headers });
    },
  }),

  /** POST /api/login {username, password}: the user, with the session cookie set. */
  route({
    method: "POST",
    path: "/api/login",
    guard: "public",
    personal: true,
    input: loginSchema,
    handle: async ({ request, input, context, ctx }) => {
      const { user, token, expiresAt } = await login(ctx, input, clientIpOf(context));
      return jsonAnswer(user, { headers: { "Set-Cookie": await sessionCookieHeader(ctx, request, token, expiresAt) } });
    },
  }),

  /**
   * POST /api/register {username, password, email, isAdmin?}: creates an ordinary user and signs
   * them in. Only an admin may create another admin; the admin's own session is kept.
   */
  route({
    method: "POST",
    path: "/api/register",
    guard: "public",
    personal: true,
    input: registerSchema,
    handle: async ({ request, input, context, ctx }) => {
      const { user: actor } = await authenticate(ctx, request);
      const user = await register(ctx, input, actor, clientIpOf(context));
      if (actor) return jsonAnswer(user, { status: 201 });
      const { token, expiresAt } = await createSession(ctx, user.id);
      return jsonAnswer(user, { status: 201, headers: { "Set-Cookie": await sessionCookieHeader(ctx, request, token, expiresAt) } });
    },
  }),

  /** POST /api/logout: ends the session on the server and clears the cookie. */
  route({
    method: "POST",
    path: "/api/logout",
    guard: "public",
    handle: async ({ request, ctx }) => {
      const clear = await signOut(ctx, request);
      return new Response(null, { status: 204, headers: { "Set-Cookie": clear } });
    },
  }),
];

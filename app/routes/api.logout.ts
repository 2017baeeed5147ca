import { signOut } from "../../server/http/auth";
import { methodNotAllowed, rest } from "../../server/http/rest";

export const loader = () => methodNotAllowed(["POST"]);

/** POST /api/logout: ends the session on the server and clears the cookie. */
export const action = rest(async ({ request, ctx }) => {
  const clear = await signOut(ctx, request);
  return new Response(null, { status: 204, headers: { "Set-Cookie": clear } });
});

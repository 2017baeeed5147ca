import type { ActionFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { signOut } from "#server/http/auth";
import { redirectWithToast } from "#server/http/flash";

/** The admin header's Logout (a form post to /admin): ends the session and goes home with the spec's toast. */
export async function logoutAction({ request }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const clear = await signOut(ctx, request);
  return redirectWithToast(
    ctx,
    request,
    "/",
    { kind: "success", title: "Logged out", description: "You have been successfully logged out" },
    { "Set-Cookie": clear },
  );
}

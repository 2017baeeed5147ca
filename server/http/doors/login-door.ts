import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import type { AppContext } from "#server/context";
import { loginSchema, type LoginActionData, type LoginLoaderData } from "#server/contracts/auth";
import { formatLaunchTime } from "#server/contracts/store-time";
import { TooMany, Unauthenticated } from "#server/errors";
import { getSettingValue } from "#server/services/store/settings";
import { login } from "#server/services/accounts/users";
import { authenticate, sessionCookieHeader } from "#server/http/auth";
import { clientIpOf } from "#server/http/requests/client-ip";
import { cameOverHttps, httpsPublicOrigin, secureCookies } from "#server/http/requests/cookies";
import { redirectWithToast } from "#server/http/flash";
import { safeRedirectPath } from "#server/http/requests/safe-redirect";
import { readForm } from "#server/http/requests/request-body";

const AFTER_SIGN_IN = "/admin";

/**
 * Marks the hop a successful sign-in makes back to the login screen before going on: arriving
 * with it but without a session means the browser did not keep the cookie (decision 0011).
 */
const SIGNED_IN_PARAM = "signedIn";

/** Why the browser dropped the session cookie, in words that say what to do about it. */
function signInNotKeptMessage(ctx: AppContext, request: Request): string {
  const httpsOrigin = httpsPublicOrigin(ctx.config);
  if (httpsOrigin && secureCookies(ctx.config, request) && !cameOverHttps(ctx.config, request)) {
    const here = new URL(request.url);
    const there = `${httpsOrigin}${here.pathname}`;
    return `Your password was right, but this browser did not keep the sign-in: this page was opened over plain http://, and the store's sign-in cookie only travels over https://. Sign in at ${there} instead.`;
  }
  return "Your password was right, but this browser did not keep the sign-in cookie. Allow cookies for this site and sign in again.";
}

/**
 * The login screen's loader, shared by /auth and /admin/login. Already signed in: to /admin; just
 * signed in: on to where the visitor was going, with the spec's toast.
 */
export async function loginLoader({ request }: LoaderFunctionArgs): Promise<LoginLoaderData> {
  const ctx = await getAppContext();
  const { user } = await authenticate(ctx, request);
  const url = new URL(request.url);
  const justSignedIn = url.searchParams.get(SIGNED_IN_PARAM) === "1";
  if (user && justSignedIn) {
    throw await redirectWithToast(ctx, request, safeRedirectPath(url.searchParams.get("redirectTo"), AFTER_SIGN_IN), {
      kind: "success",
      title: "Login successful",
      description: `Welcome back, ${user.username}!`,
    });
  }
  if (user) throw redirect(AFTER_SIGN_IN);
  const countdown = new Date(await getSettingValue(ctx, "countdown_date"));
  const launchesAt = Number.isNaN(countdown.getTime()) ? null : formatLaunchTime(countdown);
  // The form carries back only what the action would honour, so both paths agree on where to go.
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"), AFTER_SIGN_IN);
  return {
    launchesAt,
    launched: countdown.getTime() <= ctx.clock.now().getTime(),
    brand: ctx.config.brand.name,
    signInNotKept: justSignedIn ? signInNotKeptMessage(ctx, request) : null,
    redirectTo,
  };
}

/**
 * Signs in, then returns to where the visitor was going (an admin page) or /admin, by way of the
 * login screen: only the next request can tell whether the browser kept the session cookie.
 */
export async function loginAction({ request, context }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") return data<LoginActionData>(submission.reply({ hideFields: ["password"] }), { status: 400 });
  try {
    const { token, expiresAt } = await login(ctx, submission.value, clientIpOf(context));
    const check = new URLSearchParams({ redirectTo: safeRedirectPath(formData.get("redirectTo"), AFTER_SIGN_IN), [SIGNED_IN_PARAM]: "1" });
    return redirect(`${new URL(request.url).pathname}?${check}`, {
      headers: { "Set-Cookie": await sessionCookieHeader(ctx, request, token, expiresAt) },
    });
  } catch (error) {
    if (!(error instanceof Unauthenticated || error instanceof TooMany)) throw error;
    // Shown inline by the form and as a toast with JavaScript; not flashed (see subscribe-door).
    return data<LoginActionData>(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), {
      status: error instanceof TooMany ? 429 : 401,
    });
  }
}

import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { formatInTimeZone } from "date-fns-tz";
import { getAppContext } from "../boot";
import { loginSchema } from "../contracts/auth";
import { STORE_TIME_ZONE } from "../contracts/store-time";
import { TooMany, Unauthenticated } from "../errors";
import { getSettingValue } from "../services/settings";
import { login } from "../services/users";
import { authenticate, safeRedirectPath, sessionCookieHeader } from "./auth";
import { clientIpOf } from "./client-ip";
import { flashHeader } from "./flash";

/** The login screen's loader, shared by /auth and /admin/login. Already signed in: to /admin. */
export async function loginLoader({ request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const { user } = await authenticate(ctx, request);
  if (user) throw redirect("/admin");
  const countdown = new Date(await getSettingValue(ctx, "countdown_date"));
  const launchesAt = Number.isNaN(countdown.getTime())
    ? null
    : formatInTimeZone(countdown, STORE_TIME_ZONE, "EEEE, MMMM d, yyyy 'at' h:mm a 'ET'");
  return { launchesAt, launched: countdown.getTime() <= ctx.clock.now().getTime(), brand: ctx.config.brand.name };
}

/** Signs in, then returns to where the visitor was going (an admin page) or /admin. */
export async function loginAction({ request, context }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  try {
    const { user, token, expiresAt } = await login(ctx, submission.value, clientIpOf(context));
    const headers = new Headers();
    headers.append("Set-Cookie", await sessionCookieHeader(ctx, token, expiresAt));
    headers.append(
      "Set-Cookie",
      await flashHeader(ctx, { kind: "success", title: "Login successful", description: `Welcome back, ${user.username}!` }),
    );
    return redirect(safeRedirectPath(formData.get("redirectTo"), "/admin"), { headers });
  } catch (error) {
    if (!(error instanceof Unauthenticated || error instanceof TooMany)) throw error;
    // Shown inline by the form and as a toast with JavaScript; not flashed (see subscribe-door).
    return data(submission.reply({ formErrors: [error.message], hideFields: ["password"] }), {
      status: error instanceof TooMany ? 429 : 401,
    });
  }
}

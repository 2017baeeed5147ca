import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { EARLY_ACCESS_MESSAGES, type EarlyAccessLanding } from "#server/contracts/early-access";
import { Conflict } from "#server/errors";
import { claimEarlyAccessLink, landing } from "#server/services/drop/early-access";
import { passCookie, passOf } from "#server/http/gate/early-access";
import { NO_STORE } from "#server/http/cache/cache-control";

/**
 * /early-access/{token} (decision 0020). Opening the link (GET) changes nothing: mail scanners
 * that follow links must not use it up. The page's button (a form POST, with or without
 * JavaScript) claims it for this browser and sends it to the store with its pass.
 */

// The token is in the URL: keep it out of caches, search engines and Referer headers.
export const EARLY_ACCESS_PAGE_HEADERS = { "Cache-Control": NO_STORE, "X-Robots-Tag": "noindex" };

export type EarlyAccessPageData = EarlyAccessLanding & { token: string };

export async function earlyAccessLoader({ request, params }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const token = params.token ?? "";
  const page = await landing(ctx, token, passOf(request.headers.get("Cookie")));
  // After the release, or for the browser that already holds this link's pass: simply the store.
  if (page.kind === "store" || page.kind === "mine") throw redirect("/store", { headers: EARLY_ACCESS_PAGE_HEADERS });
  // Used or revoked: gone for good (410); never a link of ours: 404.
  const status = page.kind !== "refused" ? 200 : page.message === EARLY_ACCESS_MESSAGES.invalid ? 404 : 410;
  return data<EarlyAccessPageData>({ ...page, token }, { status, headers: EARLY_ACCESS_PAGE_HEADERS });
}

export async function earlyAccessAction({ request, params }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const token = params.token ?? "";
  try {
    const { pass } = await claimEarlyAccessLink(ctx, token, passOf(request.headers.get("Cookie")));
    const headers = new Headers(EARLY_ACCESS_PAGE_HEADERS);
    if (pass) headers.append("Set-Cookie", passCookie(ctx.config, request, pass));
    // The pass also lets this browser past the waiting room for its drop (earlyAccessSkipsLine).
    return redirect("/store", { headers });
  } catch (error) {
    if (!(error instanceof Conflict)) throw error;
    // Refused, or too early: the page as a GET would show it now.
    const page = await landing(ctx, token, passOf(request.headers.get("Cookie")));
    const shown: EarlyAccessLanding =
      page.kind === "ready" || page.kind === "store" || page.kind === "mine" ? { kind: "refused", message: error.message } : page;
    return data<EarlyAccessPageData>({ ...shown, token }, { status: 409, headers: EARLY_ACCESS_PAGE_HEADERS });
  }
}

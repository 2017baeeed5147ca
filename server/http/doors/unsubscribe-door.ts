import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";
import { INVALID_UNSUBSCRIBE_LINK, unsubscribeByToken, unsubscribeTarget } from "#server/services/mail/unsubscribe";
import { NO_STORE } from "#server/http/cache/cache-control";
import { readForm } from "#server/http/requests/request-body";

export type UnsubscribePageData =
  | { state: "confirm"; email: string; token: string }
  | { state: "done"; email: string }
  | { state: "invalid"; message: string; supportEmail: string };

// The token is in the URL: keep it out of caches and search engines (and, by the page's meta tag,
// out of Referer headers; the document's Referrer-Policy header is set for every page).
export const UNSUBSCRIBE_PAGE_HEADERS = { "Cache-Control": NO_STORE, "X-Robots-Tag": "noindex" };

async function answer(work: (ctx: AppContext) => Promise<UnsubscribePageData>) {
  const ctx = await getAppContext();
  try {
    return data(await work(ctx), { headers: UNSUBSCRIBE_PAGE_HEADERS });
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    return data<UnsubscribePageData>(
      { state: "invalid", message: INVALID_UNSUBSCRIBE_LINK, supportEmail: ctx.config.brand.supportEmail },
      { status: 400, headers: UNSUBSCRIBE_PAGE_HEADERS },
    );
  }
}

/** GET /unsubscribe?token=…: who the link is for, and a button; nothing changes on a GET. */
export async function unsubscribeLoader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return answer(async (ctx): Promise<UnsubscribePageData> => {
    const target = await unsubscribeTarget(ctx, token);
    return target.unsubscribed ? { state: "done", email: target.email } : { state: "confirm", email: target.email, token };
  });
}

/**
 * POST /unsubscribe?token=…: the page's button, or a mail client's RFC 8058 one-click POST
 * (body `List-Unsubscribe=One-Click`, no cookies, no Origin), to the same signed URL.
 */
export async function unsubscribeAction({ request }: ActionFunctionArgs) {
  // A mail client's one-click POST may send no form at all: the token is in the URL then.
  const form = await readForm(request).catch((error: unknown) => {
    if (error instanceof Response && error.status === 413) throw error;
    return new FormData();
  });
  const fromForm = form.get("token");
  const token = new URL(request.url).searchParams.get("token") ?? (typeof fromForm === "string" ? fromForm : "");
  return answer(async (ctx): Promise<UnsubscribePageData> => ({ state: "done", ...(await unsubscribeByToken(ctx, token)) }));
}

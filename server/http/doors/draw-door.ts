import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { DRAW_MESSAGES, drawEntrySchema, type DrawClaimView, type DrawEntryView, type PublicDraw } from "#server/contracts/draws";
import { DomainError, Invalid, NotFound } from "#server/errors";
import { claimDrawUnit, drawClaimLanding } from "#server/services/drop/draw-claims";
import { confirmDrawEntry, drawEntryView, enterDraw } from "#server/services/drop/draw-entries";
import { drawPage } from "#server/services/drop/draws";
import { NO_STORE } from "#server/http/cache/cache-control";
import { cartSessionIdOf, ensureCartSession } from "#server/http/cart-session";
import { clientIpOf } from "#server/http/requests/client-ip";
import { readForm } from "#server/http/requests/request-body";
import { statusOf } from "#server/http/error-status";
import { rowIdIn } from "#server/contracts/row-id";

/*
 * The draw's pages (issue 26, decision 0047): /draws/{id} (its public face and the entry form),
 * /draws/{id}/confirm/{token} and /draws/{id}/claim/{token}. Opening a mailed link (GET) changes
 * nothing, so mail scanners that follow links use nothing up; the page's button (a form POST,
 * with or without JavaScript) does it.
 */

// Tokens are in the URL, and entry counts move: kept by no cache, shown to no search engine.
export const DRAW_PAGE_HEADERS = { "Cache-Control": NO_STORE, "X-Robots-Tag": "noindex" };

const idOf = (value: string | undefined): number => {
  const id = rowIdIn(value);
  if (id === null) throw data(DRAW_MESSAGES.notFound, { status: 404 });
  return id;
};

async function shown<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof NotFound) throw data(error.message, { status: 404, headers: DRAW_PAGE_HEADERS });
    throw error;
  }
}

export type DrawPageData = {
  draw: PublicDraw;
  /** The product's size guide, which the draw panel shows in every state (decision 0057). */
  sizeGuide: string | null;
  entered: { ok: true; message: string } | { ok: false; message: string; fields: Record<string, string[]> } | null;
};

export async function drawPageLoader({ params }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const page = await shown(() => drawPage(ctx, idOf(params.id)));
  return data<DrawPageData>({ ...page, entered: null }, { headers: DRAW_PAGE_HEADERS });
}

/** The entry form's POST: "Check your e-mail", the same for a repeat; or why not. */
export async function drawEntryAction({ params, request, context }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const id = idOf(params.id);
  const page = await shown(() => drawPage(ctx, id));
  const form = await readForm(request);
  try {
    const parsed = drawEntrySchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw Invalid.fromZod(parsed.error);
    const { message } = await enterDraw(ctx, id, parsed.data, clientIpOf(context));
    return data<DrawPageData>({ ...page, entered: { ok: true, message } }, { status: 202, headers: DRAW_PAGE_HEADERS });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data<DrawPageData>(
      { ...page, entered: { ok: false, message: error.message, fields: error.fieldErrors } },
      { status: statusOf(error), headers: DRAW_PAGE_HEADERS },
    );
  }
}

export type DrawConfirmData = { entry: DrawEntryView; error: string | null };

export async function drawConfirmLoader({ params }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const entry = await shown(() => drawEntryView(ctx, idOf(params.id), params.token ?? ""));
  return data<DrawConfirmData>({ entry, error: null }, { headers: DRAW_PAGE_HEADERS });
}

export async function drawConfirmAction({ params }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const id = idOf(params.id);
  const token = params.token ?? "";
  try {
    const entry = await shown(() => confirmDrawEntry(ctx, id, token));
    return data<DrawConfirmData>({ entry, error: null }, { headers: DRAW_PAGE_HEADERS });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const entry = await shown(() => drawEntryView(ctx, id, token));
    return data<DrawConfirmData>({ entry, error: error.message }, { status: statusOf(error), headers: DRAW_PAGE_HEADERS });
  }
}

export async function drawClaimLoader({ params, request }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const page = await drawClaimLanding(ctx, idOf(params.id), params.token ?? "", await cartSessionIdOf(ctx, request));
  const status = page.kind === "ready" ? 200 : page.message === DRAW_MESSAGES.claimInvalid ? 404 : 410;
  return data<DrawClaimView>(page, { status, headers: DRAW_PAGE_HEADERS });
}

/** Takes the link for this browser: its bag gets the one unit, and the usual checkout follows. */
export async function drawClaimAction({ params, request }: ActionFunctionArgs) {
  const ctx = await getAppContext();
  const id = idOf(params.id);
  const token = params.token ?? "";
  const session = await ensureCartSession(ctx, request);
  try {
    await claimDrawUnit(ctx, id, token, session.id);
    const headers = new Headers(DRAW_PAGE_HEADERS);
    if (session.setCookie) headers.append("Set-Cookie", session.setCookie);
    return redirect("/checkout", { headers });
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return data<DrawClaimView>({ kind: "refused", message: error.message }, { status: statusOf(error), headers: DRAW_PAGE_HEADERS });
  }
}

import crypto from "node:crypto";
import { redirect } from "@remix-run/node";
import type { FlashToast, ToastKind } from "#server/contracts/layout";
import type { AppContext } from "#server/context";
import { cookiesFor, readCookie } from "./requests/cookies";

/**
 * Toasts that survive a redirect: the action sets a short-lived signed cookie, the root loader
 * shows it once and clears it. Works the same with and without JavaScript.
 */
export async function flashHeader(
  ctx: AppContext,
  request: Request,
  toast: { kind: ToastKind; title: string; description?: string },
): Promise<string> {
  const value: FlashToast = { id: crypto.randomUUID(), ...toast };
  return cookiesFor(ctx.config, request).flash.serialize(value);
}

export async function redirectWithToast(
  ctx: AppContext,
  request: Request,
  url: string,
  toast: { kind: ToastKind; title: string; description?: string },
  headers: HeadersInit = {},
): Promise<Response> {
  const all = new Headers(headers);
  all.append("Set-Cookie", await flashHeader(ctx, request, toast));
  return redirect(url, { headers: all });
}

export async function readFlash(ctx: AppContext, request: Request): Promise<{ toast: FlashToast | null; clear: string | null }> {
  const cookie = cookiesFor(ctx.config, request).flash;
  const value = (await readCookie(cookie, request.headers.get("Cookie"))) as FlashToast | null;
  if (!value || typeof value !== "object" || typeof value.title !== "string") return { toast: null, clear: null };
  return { toast: value, clear: await cookie.serialize("", { maxAge: 0 }) };
}

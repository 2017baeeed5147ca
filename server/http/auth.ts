import type { RequestHead } from "#server/http/requests/request-head";
import { redirect } from "@remix-run/node";
import type { PublicUser } from "#server/contracts/auth";
import type { AppContext } from "#server/context";
import { Forbidden, Unauthenticated } from "#server/errors";
import { invalidateSession, validateSessionToken } from "#server/services/accounts/sessions";
import { cookiesFor, readCookie } from "./requests/cookies";
import { safeRedirectPath } from "./requests/safe-redirect";

export interface RequestAuth {
  user: PublicUser | null;
  token: string | null;
  /** A Set-Cookie to send when the session was renewed (or found dead and must be cleared). */
  setCookie: string | null;
}

const memo = new WeakMap<RequestHead, Promise<RequestAuth>>();

/** Reads the session cookie once per request, however many loaders ask. */
export function authenticate(ctx: AppContext, request: RequestHead): Promise<RequestAuth> {
  let pending = memo.get(request);
  if (!pending) {
    pending = readSession(ctx, request);
    memo.set(request, pending);
  }
  return pending;
}

async function readSession(ctx: AppContext, request: RequestHead): Promise<RequestAuth> {
  const cookie = cookiesFor(ctx.config, request).session;
  const token = await readCookie(cookie, request.headers.get("Cookie"));
  if (typeof token !== "string" || !token) return { user: null, token: null, setCookie: null };
  const result = await validateSessionToken(ctx, token);
  if (!result) return { user: null, token: null, setCookie: await cookie.serialize("", { maxAge: 0 }) };
  return {
    user: result.user,
    token,
    setCookie: result.renewed ? await cookie.serialize(token, { expires: result.expiresAt }) : null,
  };
}

export async function sessionCookieHeader(ctx: AppContext, request: RequestHead, token: string, expiresAt: Date): Promise<string> {
  return cookiesFor(ctx.config, request).session.serialize(token, { expires: expiresAt });
}

export async function signOut(ctx: AppContext, request: RequestHead): Promise<string> {
  const { token } = await authenticate(ctx, request);
  if (token) await invalidateSession(ctx, token);
  return cookiesFor(ctx.config, request).session.serialize("", { maxAge: 0 });
}

/**
 * The one admin rule behind every door: signed out is Unauthenticated (401), signed in without
 * the admin flag is Forbidden (403). Pages turn these into redirects; tRPC and REST into codes.
 */
export function assertAdmin(user: PublicUser | null): PublicUser {
  if (!user) throw new Unauthenticated("Please sign in to continue.");
  if (!user.isAdmin) throw new Forbidden("Admin access is required.");
  return user;
}

/**
 * For admin pages: a signed-out visitor goes to /auth (and comes back after signing in);
 * a signed-in non-admin goes home.
 */
export async function requireAdminPage(ctx: AppContext, request: RequestHead): Promise<PublicUser> {
  const { user } = await authenticate(ctx, request);
  try {
    return assertAdmin(user);
  } catch (error) {
    if (!(error instanceof Unauthenticated)) throw redirect("/");
    const url = new URL(request.url);
    const back = safeRedirectPath(url.pathname + url.search, "/admin");
    throw redirect(`/auth?redirectTo=${encodeURIComponent(back)}`);
  }
}

/** For admin API doors: 401 when signed out, 403 when not an admin. */
export async function requireAdminApi(ctx: AppContext, request: RequestHead): Promise<PublicUser> {
  return assertAdmin((await authenticate(ctx, request)).user);
}

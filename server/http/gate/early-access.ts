import type { RequestHead } from "#server/http/requests/request-head";
import type { Config } from "#server/config";
import type { AppContext } from "#server/context";
import { readPass } from "#server/services/drop/early-access-pass";
import type { SessionSecrets } from "#server/services/security/session-secrets";
import { passOpenedAt } from "#server/services/drop/early-access";
import { cartSessionIdOf } from "#server/http/cart-session";
import { rawCookieValue } from "#server/http/requests/cookie-header";
import { secureCookies } from "#server/http/requests/cookies";
import { PRIVATE_NO_STORE } from "#server/http/cache/cache-control";

/** The early-access pass cookie (decision 0020). */
export const EARLY_ACCESS_COOKIE = "early_access";
// Long enough for any drop's window; the database decides whether the pass still counts.
const PASS_MAX_AGE_SECONDS = 2 * 24 * 60 * 60;
/** The pass in a Cookie header, unchecked (null when absent or malformed). */
export function passOf(cookieHeader: string | null | undefined): string | null {
  return rawCookieValue(cookieHeader, EARLY_ACCESS_COOKIE);
}

/**
 * True when the Cookie header carries a genuinely signed pass: one HMAC, no database. The shared
 * page cache steps aside for such a browser (its pages differ from everyone's), and a forged
 * cookie cannot make it step aside. A revoked pass still passes here: Remix then renders the
 * page, for that browser alone, without the restricted products.
 */
export function hasEarlyAccessCookie(cookieHeader: string | null | undefined, secrets: SessionSecrets): boolean {
  const pass = passOf(cookieHeader);
  return pass !== null && readPass(secrets, pass) !== null;
}

/**
 * The context for a shopper's request: with `earlyAccess` when the browser holds a good pass
 * (checked in the database, so a revoked link stops at once) that no other bag has bought with
 * (decision 0036). Every door that shows or sells products to shoppers asks here instead of using
 * the bare context.
 */
export async function shopperContext(ctx: AppContext, request: RequestHead): Promise<AppContext> {
  const pass = passOf(request.headers.get("Cookie"));
  if (!pass || !readPass(ctx.config, pass)) return ctx;
  const openedAt = await passOpenedAt(ctx, pass, await cartSessionIdOf(ctx, request));
  return openedAt === null ? ctx : { ...ctx, earlyAccess: { openedAt } };
}

/** The Set-Cookie that gives this browser its pass. */
export function passCookie(config: Config, request: RequestHead, pass: string): string {
  const secure = secureCookies(config, request) ? "; Secure" : "";
  return `${EARLY_ACCESS_COOKIE}=${pass}; Max-Age=${PASS_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/** A page rendered for a pass holder is that browser's alone: no shared cache (a CDN, nginx) may keep it. */
export const PASS_HOLDER_HEADERS = { "Cache-Control": PRIVATE_NO_STORE };

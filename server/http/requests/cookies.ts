import type { RequestHead } from "./request-head";
import { createCookie, type Cookie } from "@remix-run/node";
import type { Config } from "#server/config";
import { rawCookieValue } from "./cookie-header";
import { SESSION_DAYS } from "#server/services/accounts/sessions";
import { forwardedProto } from "./forwarded";

export interface Cookies {
  session: Cookie;
  cart: Cookie;
  flash: Cookie;
}

const cache = new WeakMap<Config, { secure: Cookies; plain: Cookies }>();

function makeCookies(config: Config, secure: boolean): Cookies {
  const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure };
  // Remix signs with the first secret and accepts any of them: a bag signed before the secret was
  // rotated still opens while its secret stays in SESSION_SECRET_PREVIOUS (decision 0061).
  const secrets = [config.sessionSecret, ...config.previousSessionSecrets];
  return {
    session: createCookie("session", { ...base, maxAge: SESSION_DAYS * 24 * 60 * 60 }),
    // The anonymous cart: a random id, signed so it cannot be guessed into another cart.
    cart: createCookie("cart", { ...base, maxAge: 60 * 60 * 24 * 60, secrets }),
    flash: createCookie("flash", { ...base, maxAge: 60, secrets }),
  };
}

/**
 * A Remix cookie's value in a Cookie header, or null when absent, malformed or forged. The one
 * parser (cookie-header.ts) finds it; Remix checks the signature and decodes it, and whatever that
 * throws counts as absent too.
 */
export async function readCookie(cookie: Cookie, header: string | null | undefined): Promise<unknown> {
  const raw = rawCookieValue(header, cookie.name);
  if (raw === null) return null;
  try {
    const value: unknown = await cookie.parse(`${cookie.name}=${raw}`);
    return value === "" ? null : value;
  } catch {
    return null;
  }
}

/** True when the browser reached the store over https; a proxy's X-Forwarded-Proto counts only from a trusted hop (TRUST_PROXY). */
export function cameOverHttps(config: Config, request: RequestHead): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return forwardedProto(request.headers.get("X-Forwarded-Proto"), config.trustProxy) === "https";
}

/** The https origin of PUBLIC_URL, or null when PUBLIC_URL is unset or plain http. */
export function httpsPublicOrigin(config: Config): string | null {
  return config.publicUrl?.startsWith("https:") ? config.publicUrl : null;
}

/**
 * Secure when the store's public address is https, or when this request came over https. A
 * browser refuses a Secure cookie sent over plain http, so marking cookies Secure merely for being
 * in production signed nobody in at http://192.168.1.5:3000 (decision 0011).
 */
export function secureCookies(config: Config, request: RequestHead): boolean {
  return httpsPublicOrigin(config) !== null || cameOverHttps(config, request);
}

/**
 * The store's cookies as set in answer to this request: HttpOnly, SameSite=Lax, and Secure as
 * `secureCookies` decides. Every Set-Cookie goes through here, so none can disagree.
 */
export function cookiesFor(config: Config, request: RequestHead): Cookies {
  let both = cache.get(config);
  if (!both) {
    both = { secure: makeCookies(config, true), plain: makeCookies(config, false) };
    cache.set(config, both);
  }
  return secureCookies(config, request) ? both.secure : both.plain;
}

import { createCookie, type Cookie } from "@remix-run/node";
import type { Config } from "../config";
import { SESSION_DAYS } from "../services/sessions";

export interface Cookies {
  session: Cookie;
  cart: Cookie;
  flash: Cookie;
}

const cache = new WeakMap<Config, Cookies>();

/** Every cookie is HttpOnly, SameSite=Lax, and Secure in production. */
export function cookiesFor(config: Config): Cookies {
  let cookies = cache.get(config);
  if (!cookies) {
    const base = { httpOnly: true, sameSite: "lax" as const, path: "/", secure: config.production };
    cookies = {
      session: createCookie("session", { ...base, maxAge: SESSION_DAYS * 24 * 60 * 60 }),
      // The anonymous cart: a random id, signed so it cannot be guessed into another cart.
      cart: createCookie("cart", { ...base, maxAge: 60 * 60 * 24 * 60, secrets: [config.sessionSecret] }),
      flash: createCookie("flash", { ...base, maxAge: 60, secrets: [config.sessionSecret] }),
    };
    cache.set(config, cookies);
  }
  return cookies;
}

import crypto from "node:crypto";
import type { AppContext } from "../context";
import { rawCookieValue } from "./cookie-header";
import { cookiesFor, readCookie } from "./cookies";

/**
 * The raw value of the first cookie of that name in a Cookie header, or undefined when absent or
 * malformed (cookie-header.ts). No decoding: the value is a key here, and the signed-cookie check
 * below decodes it as Remix does.
 */
export function rawCookie(header: string, name: string): string | undefined {
  return rawCookieValue(header, name) ?? undefined;
}

// Checking the bag cookie's signature (an HMAC through WebCrypto, with a key imported for each
// check) is the dearest step of a cached page and a cost of every bag request; a value always
// verifies the same way, so each distinct one is checked once per process.
const cartIdByValue = new Map<string, string | null>();
const checking = new Map<string, Promise<string | null>>();
const MAX_REMEMBERED = 10_000;

async function verifyCartValue(ctx: AppContext, value: string): Promise<string | null> {
  // Signed cookies parse the same whatever their Secure flag: the plain set is enough here.
  const cart = cookiesFor(ctx.config, new Request("http://localhost/")).cart;
  const id = await readCookie(cart, `cart=${value}`);
  return typeof id === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(id) ? id : null;
}

/** The cart id a `cart` cookie value carries (null: none, or forged), synchronously once known. */
export function cartIdOf(ctx: AppContext, value: string | undefined): string | null | Promise<string | null> {
  if (!value) return null;
  const known = cartIdByValue.get(value);
  if (known !== undefined) return known;
  let pending = checking.get(value);
  if (!pending) {
    pending = verifyCartValue(ctx, value).then(
      (id) => {
        if (cartIdByValue.size >= MAX_REMEMBERED) cartIdByValue.delete(cartIdByValue.keys().next().value!);
        cartIdByValue.set(value, id);
        checking.delete(value);
        return id;
      },
      (error: unknown) => {
        checking.delete(value);
        throw error;
      },
    );
    checking.set(value, pending);
  }
  return pending;
}

/** The anonymous cart id from the signed cookie, or null when this browser has none yet. */
export async function cartSessionIdOf(ctx: AppContext, request: Request): Promise<string | null> {
  const header = request.headers.get("Cookie");
  return header ? cartIdOf(ctx, rawCookie(header, "cart")) : null;
}

// A bag made for a request is the same bag however many steps of that request ask (the waiting
// room's gate binds a pass to it before the door adds to it: decision 0036).
const madeFor = new WeakMap<Request, Promise<{ id: string; setCookie: string | null }>>();

/** The cart id, creating one (and the Set-Cookie that carries it) when the browser has none. */
export function ensureCartSession(ctx: AppContext, request: Request): Promise<{ id: string; setCookie: string | null }> {
  let made = madeFor.get(request);
  if (!made) {
    made = (async () => {
      const existing = await cartSessionIdOf(ctx, request);
      if (existing) return { id: existing, setCookie: null };
      const id = crypto.randomBytes(18).toString("base64url");
      return { id, setCookie: await cookiesFor(ctx.config, request).cart.serialize(id) };
    })();
    madeFor.set(request, made);
  }
  return made;
}

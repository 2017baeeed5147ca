import type { RequestHead } from "#server/http/requests/request-head";
import crypto from "node:crypto";
import { addBounded, keepBounded } from "#server/bounded-memo";
import type { AppContext } from "#server/context";
import { rawCookieValue } from "./requests/cookie-header";
import { cookiesFor, readCookie } from "./requests/cookies";

/**
 * The raw value of the first cookie of that name in a Cookie header, or undefined when absent or
 * malformed (cookie-header.ts). No decoding: the value is a key here, and the signed-cookie check
 * below decodes it as Remix does.
 */
export function rawCookie(header: string, name: string): string | undefined {
  return rawCookieValue(header, name) ?? undefined;
}

// Checking the bag cookie's signature (Remix's cookie parse and an HMAC, behind a promise) is
// the dearest step of a cached page and a cost of every bag request; a value always verifies the
// same way, so each distinct one is checked once per process. Genuine bags and
// forged values are remembered apart, each within its bound, so a stream of forgeries can push
// out only other forgeries (decision 0039).
const cartIdByValue = new Map<string, string>();
const forgedValues = new Set<string>();
const checking = new Map<string, Promise<string | null>>();
const MAX_REMEMBERED = 10_000;
const MAX_FORGED_REMEMBERED = 1_000;
// What the memo was checked under: a value is genuine only under the secrets that verified it, so
// another list (a test's store, a previous secret dropped: decision 0061) starts it afresh. The
// config keeps one list object, so this is two comparisons per call. A check still under way when
// the list changed answers its own caller and is not remembered (its generation has passed).
let memoSecret = "";
let memoPrevious: readonly string[] = [];
let generation = 0;

function memoFor(ctx: AppContext) {
  const { sessionSecret, previousSessionSecrets } = ctx.config;
  if (sessionSecret === memoSecret && previousSessionSecrets === memoPrevious) return;
  cartIdByValue.clear();
  forgedValues.clear();
  checking.clear();
  memoSecret = sessionSecret;
  memoPrevious = previousSessionSecrets;
  generation++;
}

/** The cart ids this store accepts (it makes 24-character ones). */
const CART_ID = /^[A-Za-z0-9_-]{16,64}$/;
/**
 * The longest value a genuine cart cookie can have: the longest id accepted (64 characters) as JSON
 * (2 quotes more), in base64 (4 characters for 3 bytes), a dot, the HMAC-SHA-256 signature in
 * base64 without padding (43), every character percent-encoded at worst (3 each): 396. The store's
 * own are about 82. Anything longer is forged and refused before any memo or check.
 */
export const MAX_CART_COOKIE_CHARS = 3 * (4 * Math.ceil((64 + 2) / 3) + 1 + 43);

// Signed cookies parse the same whatever their Secure flag: the plain set is enough to check one.
const PLAIN_HTTP: RequestHead = { url: "http://localhost/", method: "GET", headers: new Headers() };

async function verifyCartValue(ctx: AppContext, value: string): Promise<string | null> {
  const cart = cookiesFor(ctx.config, PLAIN_HTTP).cart;
  const id = await readCookie(cart, `cart=${value}`);
  return typeof id === "string" && CART_ID.test(id) ? id : null;
}

function remember(value: string, id: string | null) {
  if (id === null) addBounded(forgedValues, value, MAX_FORGED_REMEMBERED);
  else keepBounded(cartIdByValue, value, id, MAX_REMEMBERED);
}

/**
 * A bag cookie this process has just signed is genuine: the value the browser sends back (the
 * Set-Cookie's, byte for byte) is remembered with its id, so its next request here skips the
 * signature check (in a drop's rush, one cookie parse and HMAC per shopper and worker).
 */
function rememberMade(ctx: AppContext, setCookie: string, id: string) {
  const value = rawCookie(setCookie.split(";", 1)[0]!, "cart");
  if (!value || value.length > MAX_CART_COOKIE_CHARS) return;
  memoFor(ctx);
  remember(value, id);
}

/** The cart id a `cart` cookie value carries (null: none, or forged), synchronously once known. */
export function cartIdOf(ctx: AppContext, value: string | undefined): string | null | Promise<string | null> {
  if (!value || value.length > MAX_CART_COOKIE_CHARS) return null;
  memoFor(ctx);
  const known = cartIdByValue.get(value);
  if (known !== undefined) return known;
  if (forgedValues.has(value)) return null;
  let pending = checking.get(value);
  if (!pending) {
    const checkedIn = generation;
    pending = verifyCartValue(ctx, value).then(
      (id) => {
        if (checkedIn === generation) {
          remember(value, id);
          checking.delete(value);
        }
        return id;
      },
      (error: unknown) => {
        if (checkedIn === generation) checking.delete(value);
        throw error;
      },
    );
    checking.set(value, pending);
  }
  return pending;
}

/** Test hook: how many cookie values the memo holds (genuine and forged) and how many checks are under way. */
export const cartMemoSize = () => ({ genuine: cartIdByValue.size, forged: forgedValues.size, checking: checking.size });

/** The anonymous cart id from the signed cookie, or null when this browser has none yet. */
export async function cartSessionIdOf(ctx: AppContext, request: RequestHead): Promise<string | null> {
  const header = request.headers.get("Cookie");
  return header ? cartIdOf(ctx, rawCookie(header, "cart")) : null;
}

// A bag made for a request is the same bag however many steps of that request ask (the waiting
// room's gate binds a pass to it before the door adds to it: decision 0036).
const madeFor = new WeakMap<RequestHead, Promise<{ id: string; setCookie: string | null }>>();

/** The cart id, creating one (and the Set-Cookie that carries it) when the browser has none. */
export function ensureCartSession(ctx: AppContext, request: RequestHead): Promise<{ id: string; setCookie: string | null }> {
  let made = madeFor.get(request);
  if (!made) {
    made = (async () => {
      const existing = await cartSessionIdOf(ctx, request);
      if (existing) return { id: existing, setCookie: null };
      const id = crypto.randomBytes(18).toString("base64url");
      const setCookie = await cookiesFor(ctx.config, request).cart.serialize(id);
      rememberMade(ctx, setCookie, id);
      return { id, setCookie };
    })();
    madeFor.set(request, made);
  }
  return made;
}

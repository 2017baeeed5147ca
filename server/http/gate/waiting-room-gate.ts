import type { RequestHead } from "#server/http/requests/request-head";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppLoadContext } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { WAITING_ROOM_MESSAGES, WAITING_ROOM_URL } from "#server/contracts/waiting-room";
import type { AppContext } from "#server/context";
import { bindEarlyAccessPass, earlyAccessSkipsLine } from "#server/services/drop/early-access";
import { readPass as readEarlyAccessPass } from "#server/services/drop/early-access-pass";
import { passServesBag, renewedPass, retryAfterSeconds, validPass } from "#server/services/drop/waiting-room";
import { cachedRoom, freshCachedRoom, isGated, phaseOf, type Room } from "#server/services/drop/waiting-room-state";
import { authenticate } from "#server/http/auth";
import { cartSessionIdOf, ensureCartSession } from "#server/http/cart-session";
import { passOf as earlyAccessPassOf } from "./early-access";
import { isTemplateRender } from "#server/http/cache/page-template";
import { BARE_PAGE_POLICY } from "#server/http/security-headers";
import { PASS_COOKIE, cookieValue, secureForNode, serializeCookie } from "./waiting-room-cookies";
import { NO_STORE } from "#server/http/cache/cache-control";
import { meter } from "#server/observability/meter";

/**
 * The waiting room's gate (decision 0019). In the window, /store, /store/{id}, /cart and /checkout
 * need a pass: a page without one is a 303 to /waiting-room, a purchase (a form post, POST
 * /api/cart, POST /api/process-order) a 429. It runs ahead of the page cache on every such request,
 * so it is cheap: the room is read at most once a second per process and the pass is an HMAC,
 * checked without the database (an early-access pass or a sign-in session, which few browsers carry,
 * is read from it: an admin walks past the line). Neither answer is cacheable, and the gate never writes a pass
 * into a page: it only renews one on /checkout, which is never cached.
 */

const GATED = /^\/(?:store(?:\/\d+)?|cart|checkout)\/?$/;
// Paying takes a while: a pass presented in checkout is renewed rather than run out mid-payment.
const RENEWS = /^\/(?:checkout(?:\/|\.data|$)|api\/process-order\/?$)/;

const BUSY_BODY = JSON.stringify({ message: WAITING_ROOM_MESSAGES.busy, waitingRoomUrl: WAITING_ROOM_URL });

function busyHtml(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Please join the line</title></head><body style="font-family:system-ui,sans-serif;background:#000;color:#fff;padding:2rem"><h1>${WAITING_ROOM_MESSAGES.busy}</h1><p><a style="color:#fff" href="${WAITING_ROOM_URL}">Join the line</a></p></body></html>`;
}

/** The 429 a purchase without a pass gets: JSON for scripts, a small page for a form posted without JavaScript. */
export function busyResponse(room: Room, acceptsHtml: boolean): Response {
  const headers = { "Retry-After": String(retryAfterSeconds(room)), "Cache-Control": NO_STORE };
  if (acceptsHtml)
    return new Response(busyHtml(), {
      status: 429,
      headers: { ...headers, "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": BARE_PAGE_POLICY },
    });
  return new Response(BUSY_BODY, { status: 429, headers: { ...headers, "Content-Type": "application/json; charset=utf-8" } });
}

const wantsHtml = (accept: string | null | undefined) => /text\/html/.test(accept ?? "");

function decide(ctx: AppContext, room: Room, req: IncomingMessage, res: ServerResponse, pathname: string): boolean | Promise<boolean> {
  if (!isGated(phaseOf(room, ctx.clock.now().getTime()))) return false;
  const pass = validPass(ctx, room, cookieValue(req.headers.cookie, PASS_COOKIE));
  if (pass) {
    if (RENEWS.test(pathname)) {
      const renewed = renewedPass(ctx, room, pass);
      // At its cap (decision 0036) a pass is not renewed: it runs out as it stands.
      if (renewed.expiresAt > pass.expiresAt) {
        const seconds = (renewed.expiresAt - ctx.clock.now().getTime()) / 1000;
        res.appendHeader("Set-Cookie", serializeCookie(PASS_COOKIE, renewed.token, seconds, secureForNode(ctx.config, req)));
      }
    }
    return false;
  }
  if (!GATED.test(pathname)) return false;
  // A signed early-access pass (few browsers) is checked in the database; anyone else is refused at once.
  // "Handled" is the answer: a pass that skips the line is not handled here (false), it goes on.
  const early = earlyAccessPassOf(req.headers.cookie);
  if (early && readEarlyAccessPass(ctx.config, early)) {
    // Which bag holds the pass is judged in the loaders and actions (mayPass), not on this fast path.
    return earlyAccessSkipsLine(ctx, early, room.dropAt, undefined).then((skips) => (skips ? false : refuse(room, req, res)));
  }
  if (SIGNED_IN.test(req.headers.cookie ?? "")) {
    return isAdmin(ctx, req.headers.cookie!).then((admin) => (admin ? false : refuse(room, req, res)));
  }
  return refuse(room, req, res);
}

// Only a browser that carries a sign-in session costs a database read here.
const SIGNED_IN = /(?:^|;\s*)session=[^;]/;

/** A signed-in admin walks past the line: the brand's own people look at the store during the drop. */
async function isAdmin(ctx: AppContext, cookie: string): Promise<boolean> {
  const { user } = await authenticate(ctx, new Request("http://localhost/", { headers: { Cookie: cookie } }));
  return user?.isAdmin === true;
}

function refuse(room: Room, req: IncomingMessage, res: ServerResponse): true {
  meter().passRefused();
  if (req.method === "GET" || req.method === "HEAD") {
    res.writeHead(303, { Location: WAITING_ROOM_URL, "Cache-Control": NO_STORE, "Content-Length": "0" });
    res.end();
    return true;
  }
  const html = wantsHtml(req.headers.accept);
  const body = html ? busyHtml() : BUSY_BODY;
  res.writeHead(429, {
    "Retry-After": String(retryAfterSeconds(room)),
    "Cache-Control": NO_STORE,
    "Content-Type": html ? "text/html; charset=utf-8" : "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(body)),
    ...(html ? { "Content-Security-Policy": BARE_PAGE_POLICY } : {}),
  });
  res.end(body);
  return true;
}

/**
 * The gate as server.js mounts it: `(req, res) => handled`, a boolean at once when this process
 * read the room within the last second (nearly always), else a promise of one.
 */
export function waitingRoomGate(getContext: () => Promise<AppContext> = getAppContext) {
  let ctx: AppContext | null = null;
  return (req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean> => {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const pathname = q === -1 ? url : url.slice(0, q);
    if (!GATED.test(pathname) && !RENEWS.test(pathname)) return false;
    const room = ctx ? freshCachedRoom(ctx) : null;
    if (ctx && room) return decide(ctx, room, req, res, pathname);
    return (async () => {
      ctx ??= await getContext();
      return decide(ctx, await cachedRoom(ctx), req, res, pathname);
    })();
  };
}

// The purchases that make a bag when the browser has none: a pass is bound to that new bag.
const MAKES_BAG = /^\/(?:api\/cart|store\/\d+(?:\.data)?)\/?$/;

type Bag = { id: string; isNew: boolean } | null;

/**
 * The bag a pass is judged for (decision 0036): the browser's own, or, at the purchase that
 * starts its first bag, that new bag (ensureCartSession hands the door the same one).
 */
async function bagFor(ctx: AppContext, request: RequestHead, purchase: boolean): Promise<Bag> {
  const id = await cartSessionIdOf(ctx, request);
  if (id) return { id, isNew: false };
  if (!purchase || !MAKES_BAG.test(new URL(request.url).pathname)) return null;
  return { id: (await ensureCartSession(ctx, request)).id, isNew: true };
}

/**
 * Whether this Fetch request may go on: outside the window, the page cache's own render (marked in
 * its load context, never by anything the client sends), or a valid pass that no other bag has
 * bought with. A purchase binds the passes it carries to its bag (decision
 * 0036), an early-access one before the window too: it opens restricted products then.
 */
async function mayPass(
  ctx: AppContext,
  request: RequestHead,
  { purchase = false, context }: { purchase?: boolean; context?: AppLoadContext } = {},
): Promise<{ ok: true } | { ok: false; room: Room }> {
  if (isTemplateRender(context)) return { ok: true };
  const room = await cachedRoom(ctx);
  const cookies = request.headers.get("Cookie");
  const early = earlyAccessPassOf(cookies);
  const signedEarly = early !== null && readEarlyAccessPass(ctx.config, early) !== null;
  let bag: Promise<Bag> | undefined;
  const bagOf = () => (bag ??= bagFor(ctx, request, purchase));
  if (purchase && signedEarly) {
    const buying = await bagOf();
    if (buying) await bindEarlyAccessPass(ctx, early, buying.id);
  }
  if (!isGated(phaseOf(room, ctx.clock.now().getTime()))) return { ok: true };
  const pass = validPass(ctx, room, cookieValue(cookies, PASS_COOKIE));
  if (pass && (await passServesBag(ctx, pass, await bagOf(), purchase))) return { ok: true };
  if (signedEarly) {
    // A new bag is no other bag yet (see passServesBag): it is judged at its next purchase.
    const judged = await bagOf();
    if (await earlyAccessSkipsLine(ctx, early, room.dropAt, judged && !judged.isNew ? judged.id : null)) return { ok: true };
  }
  if ((await authenticate(ctx, request)).user?.isAdmin) return { ok: true };
  return { ok: false, room };
}

/**
 * For the loaders of /store, /store/{id}, /cart and /checkout: the same gate for `.data` requests
 * and the dev server, which the node gate does not see. The page cache's own render for nobody
 * passes (it carries no visitor; the gate in front of the cache judges the visitor).
 */
export async function requirePassForPage(request: RequestHead, context?: AppLoadContext): Promise<void> {
  const ctx = await getAppContext();
  if ((await mayPass(ctx, request, { context })).ok) return;
  meter().passRefused();
  throw new Response(null, { status: 303, headers: { Location: WAITING_ROOM_URL, "Cache-Control": NO_STORE } });
}

/**
 * For the actions of the bag and checkout forms: a purchase without a pass is a 429, a page for a
 * form posted without JavaScript, JSON for a fetcher (single fetch sends the browser's default
 * Accept, which does not name text/html). A fetcher's post to /cart.data reaches the action as
 * /cart (single fetch takes the suffix off first), so its URL cannot tell it from a form's post.
 */
export async function requirePassForPurchase(request: RequestHead): Promise<void> {
  const ctx = await getAppContext();
  const verdict = await mayPass(ctx, request, { purchase: true });
  if (verdict.ok) return;
  meter().passRefused();
  throw busyResponse(verdict.room, wantsHtml(request.headers.get("Accept")));
}

/** For the API table's POST /api/cart and POST /api/process-order: the 429 to answer, or null to go on. */
export async function refuseWithoutPass(ctx: AppContext, request: RequestHead): Promise<Response | null> {
  const verdict = await mayPass(ctx, request, { purchase: true });
  if (verdict.ok) return null;
  meter().passRefused();
  return busyResponse(verdict.room, false);
}

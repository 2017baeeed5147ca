import type { RequestHead } from "#server/http/requests/request-head";
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import type { AppContext } from "#server/context";
import { listVisibleProducts } from "#server/services/catalog/catalog";
import { enterWaitingRoom, type PlaceStatus } from "#server/services/drop/waiting-room";
import { cachedRoom } from "#server/services/drop/waiting-room-state";
import { clientIpOf } from "#server/http/requests/client-ip";
import { PASS_COOKIE, PLACE_COOKIE, cookieValue, serializeCookie } from "#server/http/gate/waiting-room-cookies";
import { secureCookies } from "#server/http/requests/cookies";
import { PRIVATE_NO_STORE } from "#server/http/cache/cache-control";

/** What the doors read from a browser: its place and its pass. */
export function placeCookiesOf(request: RequestHead): { placeId: string | null; passToken: string | null } {
  const header = request.headers.get("Cookie");
  return { placeId: cookieValue(header, PLACE_COOKIE), passToken: cookieValue(header, PASS_COOKIE) };
}

// A place is kept for a day: far past any window, so a browser that comes back finds it.
const PLACE_SECONDS = 24 * 60 * 60;

/** The Set-Cookie headers for a place's answer: the place id when new, the pass once admitted. Never cached. */
export function placeSetCookies(ctx: AppContext, request: RequestHead, result: PlaceStatus, joined: boolean): string[] {
  const secure = secureCookies(ctx.config, request);
  const cookies: string[] = [];
  if (joined && result.placeId) cookies.push(serializeCookie(PLACE_COOKIE, result.placeId, PLACE_SECONDS, secure));
  if (result.pass) cookies.push(passSetCookie(ctx, request, result.pass));
  return cookies;
}

/** The Set-Cookie for a pass from `issuePass` (early access hands one out this way). */
export function passSetCookie(ctx: AppContext, request: RequestHead, pass: { token: string; expiresAt: number }): string {
  const seconds = (pass.expiresAt - ctx.clock.now().getTime()) / 1000;
  return serializeCookie(PASS_COOKIE, pass.token, seconds, secureCookies(ctx.config, request));
}

/** The drop on the waiting-room page: the newest product a shopper may already see (never an unreleased one). */
export interface DropShowcase {
  name: string;
  image: { imageUrl: string | null; imagePath: string | null; srcSet: string | null } | null;
}

// Thousands of waiting browsers reload this page: the showcase is read at most every 10 s per process.
let showcase: { at: number; value: DropShowcase | null } | null = null;

async function dropShowcase(ctx: AppContext): Promise<DropShowcase | null> {
  const now = ctx.clock.now().getTime();
  if (showcase && now - showcase.at < 10_000 && now >= showcase.at) return showcase.value;
  const product = (await listVisibleProducts(ctx)).find((p) => p.imageUrl || p.imagePath) ?? null;
  const value = product
    ? { name: product.name, image: { imageUrl: product.imageUrl, imagePath: product.imagePath, srcSet: product.srcSet } }
    : null;
  showcase = { at: now, value };
  return value;
}

/**
 * GET /waiting-room: joins the line (or finds this browser's place) and says where it stands.
 * An arrival whose turn comes at once (nobody waiting) goes straight to the store with its pass.
 */
export async function waitingRoomPage({ request, context }: LoaderFunctionArgs) {
  const ctx = await getAppContext();
  const result = await enterWaitingRoom(ctx, { ...placeCookiesOf(request), address: clientIpOf(context) });
  const headers = new Headers({ "Cache-Control": PRIVATE_NO_STORE });
  if (result.refused === null)
    for (const cookie of placeSetCookies(ctx, request, result, result.joined)) headers.append("Set-Cookie", cookie);
  // Outside the window the page says so with a link rather than redirecting: a worker whose
  // one-second view of the room still says "open" would send the visitor straight back.
  if (result.joined && result.status.state === "admitted") {
    headers.set("Location", "/store");
    throw new Response(null, { status: 303, headers });
  }
  const room = await cachedRoom(ctx);
  return data(
    {
      brand: ctx.config.brand,
      status: result.status,
      refused: result.refused,
      paused: room.paused,
      dropAt: new Date(room.dropAt).toISOString(),
      now: ctx.clock.now().toISOString(),
      drop: await dropShowcase(ctx),
    },
    { headers },
  );
}

import type { AppContext } from "../context";
import type { PlaceStatus } from "../services/waiting-room";
import { PASS_COOKIE, PLACE_COOKIE, cookieValue, serializeCookie } from "./waiting-room-cookies";
import { secureCookies } from "./cookies";

/** What the doors read from a browser: its place and its pass. */
export function placeCookiesOf(request: Request): { placeId: string | null; passToken: string | null } {
  const header = request.headers.get("Cookie");
  return { placeId: cookieValue(header, PLACE_COOKIE), passToken: cookieValue(header, PASS_COOKIE) };
}

// A place is kept for a day: far past any window, so a browser that comes back finds it.
const PLACE_SECONDS = 24 * 60 * 60;

/** The Set-Cookie headers for a place's answer: the place id when new, the pass once admitted. Never cached. */
export function placeSetCookies(ctx: AppContext, request: Request, result: PlaceStatus, joined: boolean): string[] {
  const secure = secureCookies(ctx.config, request);
  const cookies: string[] = [];
  if (joined && result.placeId) cookies.push(serializeCookie(PLACE_COOKIE, result.placeId, PLACE_SECONDS, secure));
  if (result.pass) {
    const seconds = (result.pass.expiresAt - ctx.clock.now().getTime()) / 1000;
    cookies.push(serializeCookie(PASS_COOKIE, result.pass.token, seconds, secure));
  }
  return cookies;
}

export const PRIVATE_NO_STORE = "private, no-store";

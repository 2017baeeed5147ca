import type { IncomingMessage } from "node:http";
import type { Config } from "#server/config";
import { forwardedProto } from "#server/http/requests/forwarded";

/**
 * The waiting room's two cookies: the browser's place in line (a random id, one per browser) and
 * its pass (signed and expiring, server/services/drop/waiting-room-pass.ts). HttpOnly, SameSite=Lax,
 * Secure as the store's other cookies decide (decision 0011). Read by hand rather than through
 * Remix's cookie objects: the gate checks the pass on every store request, synchronously.
 */
export const PLACE_COOKIE = "waiting_room_place";
export const PASS_COOKIE = "waiting_room_pass";

/** One cookie's value from a Cookie header, or null: the store's one total reader (cookie-header.ts). */
export { cookieValue } from "#server/http/requests/cookie-header";

export function serializeCookie(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  const max = Math.max(0, Math.floor(maxAgeSeconds));
  return `${name}=${encodeURIComponent(value)}; Max-Age=${max}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Secure for a node request, as `secureCookies` decides for a Fetch one. */
export function secureForNode(config: Config, req: IncomingMessage): boolean {
  if (config.publicUrl?.startsWith("https:")) return true;
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  return forwardedProto(req.headers["x-forwarded-proto"], config.trustProxy) === "https";
}

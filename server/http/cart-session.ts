import crypto from "node:crypto";
import type { AppContext } from "../context";
import { cookiesFor } from "./cookies";

/** The anonymous cart id from the signed cookie, or null when this browser has none yet. */
export async function cartSessionIdOf(ctx: AppContext, request: Request): Promise<string | null> {
  const value = (await cookiesFor(ctx.config, request).cart.parse(request.headers.get("Cookie"))) as unknown;
  return typeof value === "string" && /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : null;
}

/** The cart id, creating one (and the Set-Cookie that carries it) when the browser has none. */
export async function ensureCartSession(ctx: AppContext, request: Request): Promise<{ id: string; setCookie: string | null }> {
  const existing = await cartSessionIdOf(ctx, request);
  if (existing) return { id: existing, setCookie: null };
  const id = crypto.randomBytes(18).toString("base64url");
  return { id, setCookie: await cookiesFor(ctx.config, request).cart.serialize(id) };
}

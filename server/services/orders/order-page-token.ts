import crypto from "node:crypto";
import type { AppContext } from "#server/context";

/**
 * The order page's token (issue 25, decision 0046): 256 bits, the HMAC under the store's secret of
 * a random nonce kept on the order. Nothing an order shows (its id, number, payment intent) gives
 * it, nor does the database alone: it holds the nonce and the token's SHA-256, by which the page
 * finds its order. Rebuilt at will from the nonce, so every e-mail carries the same link.
 */

const PURPOSE = "legacy-store/order-page/v1:";
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Hashed in place of a malformed token, so a bad token costs what a good one does. */
const FILLER = "x".repeat(43);

export const tokenHashOf = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export const pageTokenOf = (secret: string, nonce: string) =>
  crypto
    .createHmac("sha256", secret)
    .update(PURPOSE + nonce)
    .digest("base64url");

export const newPageNonce = () => crypto.randomBytes(24).toString("base64url");

/** What a new order is written with. */
export function newOrderPageKey(secret: string): { pageNonce: string; pageTokenHash: string } {
  const pageNonce = newPageNonce();
  return { pageNonce, pageTokenHash: tokenHashOf(pageTokenOf(secret, pageNonce)) };
}

/**
 * The order's page token, made now for an order from before there were pages (or kept in step
 * when the secret changed: links sent under the old secret stop working, new ones do).
 */
export async function orderPageToken(ctx: AppContext, orderId: number): Promise<string | null> {
  const row = await ctx.db.selectFrom("orders").select(["pageNonce", "pageTokenHash"]).where("id", "=", orderId).executeTakeFirst();
  if (!row) return null;
  const secret = ctx.config.sessionSecret;
  if (row.pageNonce) {
    const token = pageTokenOf(secret, row.pageNonce);
    const hash = tokenHashOf(token);
    if (row.pageTokenHash === hash) return token;
    await ctx.db.updateTable("orders").set({ pageTokenHash: hash }).where("id", "=", orderId).execute();
    return token;
  }
  const key = newOrderPageKey(secret);
  // Two callers at once: one nonce wins, and both answer the winner's token.
  await ctx.db.updateTable("orders").set(key).where("id", "=", orderId).where("pageNonce", "is", null).execute();
  return orderPageToken(ctx, orderId);
}

/** The order a token opens, or null: a malformed token is looked up all the same (the same time). */
export async function orderIdForToken(ctx: AppContext, token: string): Promise<number | null> {
  const wellFormed = TOKEN.test(token);
  const hash = tokenHashOf(wellFormed ? token : FILLER);
  const row = await ctx.db.selectFrom("orders").select("id").where("pageTokenHash", "=", hash).executeTakeFirst();
  return wellFormed && row ? row.id : null;
}

/** The page's address, on the store's public origin. */
export const orderPagePath = (token: string) => `/orders/${token}`;

/**
 * The order page's full address for an e-mail: on PUBLIC_URL, else the address the buyer ordered
 * from, else this host's own port (a store reached nowhere else).
 */
export async function orderPageUrl(ctx: AppContext, order: { id: number; siteOrigin: string | null }): Promise<string | null> {
  const token = await orderPageToken(ctx, order.id);
  if (!token) return null;
  const origin = ctx.config.publicUrl ?? order.siteOrigin ?? `http://localhost:${ctx.config.port}`;
  return origin + orderPagePath(token);
}

/**
 * The order page's path for the browser that placed the order (its bag's session), right after
 * paying: the success page and the notice show it. Null for anyone else, who has the e-mail.
 */
export async function orderPagePathForBag(ctx: AppContext, orderId: number, sessionId: string | null): Promise<string | null> {
  if (!sessionId) return null;
  const row = await ctx.db.selectFrom("orders").select("sessionId").where("id", "=", orderId).executeTakeFirst();
  if (!row || row.sessionId !== sessionId) return null;
  const token = await orderPageToken(ctx, orderId);
  return token ? orderPagePath(token) : null;
}

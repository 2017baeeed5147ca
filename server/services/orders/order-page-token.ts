import crypto from "node:crypto";
import { compiledOnce } from "#db/compiled-query";
import type { AppContext } from "#server/context";
import { acceptedSecrets, signedByAny } from "#server/services/security/session-secrets";

/**
 * The order page's token (issue 25, decision 0046): 256 bits, the HMAC under the store's secret of
 * a random nonce kept on the order. Nothing an order shows (its id, number, payment intent) gives
 * it, nor does the database alone: it holds the nonce and the token's SHA-256, by which the page
 * finds its order. Rebuilt at will from the nonce, so every e-mail carries the same link.
 *
 * Rotating the secret (decision 0061): new orders are keyed under the current SESSION_SECRET; an
 * order keyed under a secret still listed in SESSION_SECRET_PREVIOUS keeps its token (and every
 * e-mail keeps carrying it); only once that secret is dropped is the order keyed afresh, and its
 * old link opens nothing even before then.
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
 * The token the stored hash was made from, under the current secret or a listed previous one;
 * null when none of them made it (the secret it was keyed under has been dropped).
 */
function storedToken(ctx: AppContext, row: { pageNonce: string; pageTokenHash: string | null }): string | null {
  for (const secret of acceptedSecrets(ctx.config)) {
    const token = pageTokenOf(secret, row.pageNonce);
    if (tokenHashOf(token) === row.pageTokenHash) return token;
  }
  return null;
}

/**
 * The order's page token, made now for an order from before there were pages. An order keyed under
 * a listed previous secret keeps that token, so links already e-mailed keep working; one keyed
 * under a secret no longer listed is keyed again under the current one (its old links stop working,
 * new ones work).
 */
const pageKeyOf = compiledOnce((db, $: { id: number }) =>
  db.selectFrom("orders").select(["pageNonce", "pageTokenHash"]).where("id", "=", $.id),
);

export async function orderPageToken(ctx: AppContext, orderId: number): Promise<string | null> {
  const row = await pageKeyOf.first(ctx.db, { id: orderId });
  if (!row) return null;
  const secret = ctx.config.sessionSecret;
  if (row.pageNonce) {
    const kept = storedToken(ctx, { pageNonce: row.pageNonce, pageTokenHash: row.pageTokenHash });
    if (kept !== null) return kept;
    const token = pageTokenOf(secret, row.pageNonce);
    await ctx.db
      .updateTable("orders")
      .set({ pageTokenHash: tokenHashOf(token) })
      .where("id", "=", orderId)
      .execute();
    return token;
  }
  const key = newOrderPageKey(secret);
  // Two callers at once: one nonce wins, and both answer the winner's token.
  await ctx.db.updateTable("orders").set(key).where("id", "=", orderId).where("pageNonce", "is", null).execute();
  return orderPageToken(ctx, orderId);
}

/**
 * The order a token opens, or null: a malformed token is looked up all the same (the same time).
 * The token found must also be its nonce's HMAC under a secret still accepted: a link keyed under a
 * secret since dropped from SESSION_SECRET_PREVIOUS opens nothing, even before its order is keyed
 * again (dropping a leaked secret voids what it made at once).
 */
export async function orderIdForToken(ctx: AppContext, token: string): Promise<number | null> {
  const wellFormed = TOKEN.test(token);
  const hash = tokenHashOf(wellFormed ? token : FILLER);
  const row = await ctx.db.selectFrom("orders").select(["id", "pageNonce"]).where("pageTokenHash", "=", hash).executeTakeFirst();
  if (!wellFormed || !row?.pageNonce) return null;
  const nonce = row.pageNonce;
  return signedByAny(ctx.config, token, (secret) => Buffer.from(pageTokenOf(secret, nonce), "base64url")) ? row.id : null;
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

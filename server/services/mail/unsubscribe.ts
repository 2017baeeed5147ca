import crypto from "node:crypto";
import type { AppContext } from "#server/context";
import { Invalid } from "#server/errors";
import { signedByAny } from "#server/services/security/session-secrets";

export const INVALID_UNSUBSCRIBE_LINK = "This unsubscribe link is not valid.";

// Domain separation: the session secret signs other things too; this MAC means only this.
const PURPOSE = "legacy-store/unsubscribe/v1:";

function mac(secret: string, subscriberId: number): Buffer {
  return crypto
    .createHmac("sha256", secret)
    .update(PURPOSE + subscriberId)
    .digest();
}

/**
 * A per-subscriber token for the unsubscribe link: `<id>.<HMAC-SHA256, base64url>`. It carries no
 * expiry on purpose: an unsubscribe link must keep working for as long as the e-mail is kept (and,
 * after the secret is rotated, for as long as its secret stays in SESSION_SECRET_PREVIOUS: 0061).
 */
export function unsubscribeToken(ctx: AppContext, subscriberId: number): string {
  return `${subscriberId}.${mac(ctx.config.sessionSecret, subscriberId).toString("base64url")}`;
}

/** The subscriber id a token was made for (under the current or a listed previous secret), or null for anything forged, altered or malformed. */
export function subscriberIdOf(ctx: AppContext, token: string | null | undefined): number | null {
  const match = /^([1-9]\d{0,15})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
  if (!match) return null;
  const id = Number(match[1]);
  return signedByAny(ctx.config, match[2]!, (secret) => mac(secret, id)) ? id : null;
}

export function unsubscribeUrl(ctx: AppContext, origin: string, subscriberId: number): string {
  return `${origin}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(ctx, subscriberId))}`;
}

export interface UnsubscribeTarget {
  email: string;
  unsubscribed: boolean;
}

/** Who a link is for, for the confirmation page. Throws Invalid for a bad or stale token. */
export async function unsubscribeTarget(ctx: AppContext, token: string | null | undefined): Promise<UnsubscribeTarget> {
  const id = subscriberIdOf(ctx, token);
  const row =
    id === null
      ? undefined
      : await ctx.db.selectFrom("subscribers").select(["email", "unsubscribedAt"]).where("id", "=", id).executeTakeFirst();
  if (!row) throw new Invalid(INVALID_UNSUBSCRIBE_LINK);
  return { email: row.email, unsubscribed: row.unsubscribedAt !== null };
}

/**
 * Unsubscribes the token's subscriber (the link's button, or a mail client's RFC 8058 one-click
 * POST). Idempotent: a second click keeps the first time.
 */
export async function unsubscribeByToken(ctx: AppContext, token: string | null | undefined): Promise<{ email: string }> {
  const { email } = await unsubscribeTarget(ctx, token);
  await markUnsubscribed(ctx, email);
  return { email };
}

/** Postmark's subscription-change webhook names the address. True when someone was unsubscribed. */
export async function unsubscribeByEmail(ctx: AppContext, email: string): Promise<boolean> {
  return markUnsubscribed(ctx, email.trim().toLowerCase());
}

async function markUnsubscribed(ctx: AppContext, email: string): Promise<boolean> {
  const result = await ctx.db
    .updateTable("subscribers")
    .set({ unsubscribedAt: ctx.clock.now().toISOString() })
    .where("email", "=", email)
    .where("unsubscribedAt", "is", null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { PublicUser } from "#server/contracts/auth";
import type { AppContext } from "#server/context";

/**
 * Sessions in the design of Lucia's author: the cookie holds a random token, the database
 * only its SHA-256, so a leaked database cannot be replayed as cookies.
 */
export const SESSION_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const SESSION_MS = SESSION_DAYS * DAY_MS;

export interface SessionResult {
  user: PublicUser;
  expiresAt: Date;
  /** True when the expiry was pushed forward and the cookie should be sent again. */
  renewed: boolean;
}

export function generateSessionToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function sessionIdOf(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export async function createSession(ctx: AppContext, userId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = generateSessionToken();
  const expiresAt = new Date(ctx.clock.now().getTime() + SESSION_MS);
  await ctx.db
    .insertInto("sessions")
    .values({ id: sessionIdOf(token), userId, expiresAt: expiresAt.toISOString() })
    .execute();
  return { token, expiresAt };
}

export async function validateSessionToken(ctx: AppContext, token: string): Promise<SessionResult | null> {
  if (!/^[a-z2-7]{32}$/.test(token)) return null;
  const id = sessionIdOf(token);
  const row = await ctx.db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.userId")
    .select(["sessions.expiresAt", "users.id", "users.username", "users.email", "users.isAdmin"])
    .where("sessions.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const now = ctx.clock.now().getTime();
  let expiresAt = new Date(row.expiresAt);
  if (now >= expiresAt.getTime()) {
    await ctx.db.deleteFrom("sessions").where("id", "=", id).execute();
    return null;
  }
  // Renew when half the lifetime is spent, so active admins stay signed in.
  const renewed = expiresAt.getTime() - now < SESSION_MS / 2;
  if (renewed) {
    expiresAt = new Date(now + SESSION_MS);
    await ctx.db.updateTable("sessions").set({ expiresAt: expiresAt.toISOString() }).where("id", "=", id).execute();
  }
  return {
    user: { id: row.id, username: row.username, email: row.email, isAdmin: row.isAdmin === 1 },
    expiresAt,
    renewed,
  };
}

export async function invalidateSession(ctx: AppContext, token: string): Promise<void> {
  await ctx.db.deleteFrom("sessions").where("id", "=", sessionIdOf(token)).execute();
}

/** Signs the user out everywhere, optionally keeping the session in hand (after a password change). */
export async function invalidateUserSessions(ctx: AppContext, userId: number, keepToken?: string): Promise<void> {
  let query = ctx.db.deleteFrom("sessions").where("userId", "=", userId);
  if (keepToken) query = query.where("id", "!=", sessionIdOf(keepToken));
  await query.execute();
}

export async function deleteExpiredSessions(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom("sessions").where("expiresAt", "<=", ctx.clock.now().toISOString()).execute();
}

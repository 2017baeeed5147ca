import type { LoginInput, PublicUser, RegisterInput } from "#server/contracts/auth";
import type { AppContext } from "#server/context";
import { Conflict, Unauthenticated } from "#server/errors";
import { AddressRateLimiter, RateLimiter } from "#server/services/security/rate-limit";
import { decoyHash, hashPassword, verifyPassword } from "./passwords";
import { createSession } from "./sessions";

const FIFTEEN_MINUTES = 15 * 60 * 1000;
// Per address: generous enough for an office behind one NAT, tight enough to stop guessing.
const loginsPerIp = new AddressRateLimiter("logins-per-ip", (ctx) => ctx.config.rateLimits.loginsPerIp, FIFTEEN_MINUTES);
// Per account: failures only, so a locked-out attacker cannot lock the owner out for long.
const failuresPerAccount = new RateLimiter("login-failures-per-account", 5, FIFTEEN_MINUTES);

// New accounts per network: each is an argon2 hash and a row, and a bot's accounts are its tries.
const registrationsPerIp = new AddressRateLimiter(
  "registrations-per-ip",
  (ctx) => ctx.config.rateLimits.registrationsPerIp,
  10 * 60 * 1000,
);

const tooManyLogins = (minutes: number) =>
  `Too many sign-in attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;

type UserRow = { id: number; username: string; email: string; isAdmin: 0 | 1 };

export function toPublicUser(row: UserRow): PublicUser {
  return { id: row.id, username: row.username, email: row.email, isAdmin: row.isAdmin === 1 };
}

export async function login(
  ctx: AppContext,
  input: LoginInput,
  clientIp: string,
): Promise<{ user: PublicUser; token: string; expiresAt: Date }> {
  const accountKey = input.username.toLowerCase();
  await failuresPerAccount.check(ctx, accountKey, tooManyLogins);
  await loginsPerIp.take(ctx, clientIp, tooManyLogins);

  const row = await ctx.db
    .selectFrom("users")
    .select(["id", "username", "email", "isAdmin", "passwordHash"])
    .where("username", "=", input.username)
    .executeTakeFirst();
  const ok = await verifyPassword(row?.passwordHash ?? (await decoyHash()), input.password);
  if (!row || !ok) {
    await failuresPerAccount.hit(ctx, accountKey);
    throw new Unauthenticated("Invalid username or password");
  }
  await failuresPerAccount.reset(ctx, accountKey);
  const session = await createSession(ctx, row.id);
  return { user: toPublicUser(row), ...session };
}

/**
 * Creates an ordinary user. Only an admin acting may create another admin: an anonymous
 * `isAdmin: true` is ignored rather than refused, as the public form never sends it. Anyone but
 * a signed-in admin counts against their network's allowance, before any hashing.
 */
export async function register(ctx: AppContext, input: RegisterInput, actor: PublicUser | null, clientIp: string): Promise<PublicUser> {
  if (actor?.isAdmin !== true) {
    await registrationsPerIp.take(
      ctx,
      clientIp,
      (m) => `Too many new accounts from your network. Please try again in ${m} minute${m === 1 ? "" : "s"}.`,
    );
  }
  const isAdmin = input.isAdmin === true && actor?.isAdmin === true;
  const passwordHash = await hashPassword(input.password);
  const row = await ctx.db
    .insertInto("users")
    .values({ username: input.username, email: input.email, passwordHash, isAdmin: isAdmin ? 1 : 0 })
    .onConflict((oc) => oc.column("username").doNothing())
    .returning(["id", "username", "email", "isAdmin"])
    .executeTakeFirst();
  if (!row) throw new Conflict("That username is already taken.", { username: ["That username is already taken."] });
  return toPublicUser(row);
}

/**
 * Makes sure an admin exists: creates one from the configured credentials when the table has none.
 * Returns the username created, or null when an admin already existed.
 */
export async function ensureAdmin(ctx: AppContext, admin: { username: string; password: string; email: string }): Promise<string | null> {
  const existing = await ctx.db.selectFrom("users").select("id").where("isAdmin", "=", 1).executeTakeFirst();
  if (existing) return null;
  const passwordHash = await hashPassword(admin.password);
  await ctx.db
    .insertInto("users")
    .values({ username: admin.username, email: admin.email, passwordHash, isAdmin: 1 })
    .onConflict((oc) => oc.column("username").doUpdateSet({ isAdmin: 1, passwordHash, email: admin.email }))
    .execute();
  return admin.username;
}

/** For `npm run admin:create`: creates an admin, or promotes and resets an existing user. */
export async function upsertAdmin(
  ctx: AppContext,
  admin: { username: string; password: string; email: string },
): Promise<"created" | "updated"> {
  const passwordHash = await hashPassword(admin.password);
  const existing = await ctx.db.selectFrom("users").select("id").where("username", "=", admin.username).executeTakeFirst();
  if (existing) {
    await ctx.db.updateTable("users").set({ isAdmin: 1, passwordHash, email: admin.email }).where("id", "=", existing.id).execute();
    return "updated";
  }
  await ctx.db.insertInto("users").values({ username: admin.username, email: admin.email, passwordHash, isAdmin: 1 }).execute();
  return "created";
}

/** Test hook: forget every counter. */
export async function resetLoginLimits(ctx: AppContext): Promise<void> {
  await loginsPerIp.clear(ctx);
  await failuresPerAccount.clear(ctx);
  await registrationsPerIp.clear(ctx);
}

import { changePasswordApiSchema, PASSWORD_MESSAGES, type ShippingTestResult } from "#server/contracts/admin-settings";
import type { PublicUser } from "#server/contracts/auth";
import type { AppContext } from "#server/context";
import { DomainError, Invalid, NotFound } from "#server/errors";
import { parseInput } from "#server/services/store/admin-settings";
import { hashPassword, verifyPassword } from "./passwords";
import { RateLimiter } from "#server/services/security/rate-limit";
import { invalidateUserSessions } from "./sessions";
import { testShippingLabel } from "#server/services/fulfilment/shipping-test";
import { logError } from "#server/observability/log";

// A stolen session must not become a way to guess the password it would need to lock the owner
// out: wrong current passwords are limited per user, like failed logins are.
const wrongCurrentPasswords = new RateLimiter("wrong-current-passwords", 5, 15 * 60 * 1000);
const tooMany = (minutes: number) =>
  `Too many incorrect passwords. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`;

/**
 * docs/spec.md §5 "Change password": the current password is checked with argon2, the new one is hashed
 * and stored, and every other session of the user is signed out (whoever else may know the old
 * password), keeping the one in hand so the admin stays signed in here. A null `keepToken`
 * signs out every session.
 */
export async function changePassword(
  ctx: AppContext,
  user: PublicUser,
  keepToken: string | null,
  input: unknown,
): Promise<{ message: string }> {
  const { currentPassword, newPassword } = parseInput(changePasswordApiSchema, input);
  const key = String(user.id);
  await wrongCurrentPasswords.check(ctx, key, tooMany);
  const row = await ctx.db.selectFrom("users").select(["passwordHash"]).where("id", "=", user.id).executeTakeFirst();
  if (!row) throw new NotFound("Your account no longer exists.");
  if (!(await verifyPassword(row.passwordHash, currentPassword))) {
    await wrongCurrentPasswords.hit(ctx, key);
    throw new Invalid(PASSWORD_MESSAGES.currentIncorrect, { currentPassword: [PASSWORD_MESSAGES.currentIncorrect] });
  }
  await wrongCurrentPasswords.reset(ctx, key);
  const passwordHash = await hashPassword(newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ passwordHash }).where("id", "=", user.id).execute();
    await invalidateUserSessions({ ...ctx, db: trx }, user.id, keepToken ?? undefined);
  });
  return { message: PASSWORD_MESSAGES.updated };
}

/** The shipping provider failed the test (its API refused, or was unreachable): REST answers 502. */
export class ShippingTestFailed extends DomainError {}

/**
 * The Account tab's shipping integration test. A provider failure becomes a readable message (the
 * provider's own words) instead of an anonymous 500; the full error is logged for the operator.
 */
export async function runShippingTest(ctx: AppContext): Promise<ShippingTestResult> {
  try {
    return await testShippingLabel(ctx);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    logError("Shipping test failed", error);
    const said = error instanceof Error && error.message ? error.message : "no answer";
    throw new ShippingTestFailed(`The shipping provider could not create the test label: ${said}`);
  }
}

/** Test hook: forget the counters. */
export async function resetPasswordChangeLimits(ctx: AppContext): Promise<void> {
  await wrongCurrentPasswords.clear(ctx);
}

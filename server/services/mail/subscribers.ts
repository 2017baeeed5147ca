import type { SubscribeInput } from "#server/contracts/subscribe";
import { SUBSCRIBE_MESSAGES } from "#server/contracts/subscribe";
import type { AppContext } from "#server/context";
import { Conflict } from "#server/errors";
import { AddressRateLimiter } from "#server/services/security/rate-limit";

// A person subscribes once; a script hammering the form from one address is stopped.
const subscribesPerIp = new AddressRateLimiter("subscribes-per-ip", (ctx) => ctx.config.rateLimits.subscribesPerIp, 10 * 60 * 1000);

export interface Subscriber {
  id: number;
  email: string;
  subscribedAt: string;
}

/**
 * Adds an early-access subscriber. An address already on the list (any case, any spacing) is a
 * Conflict with the spec's message. An address that unsubscribed before is welcomed back.
 */
export async function subscribe(ctx: AppContext, input: SubscribeInput, clientIp: string): Promise<Subscriber> {
  await subscribesPerIp.take(
    ctx,
    clientIp,
    (m) => `Too many sign-ups from your network. Please try again in ${m} minute${m === 1 ? "" : "s"}.`,
  );
  const now = ctx.clock.now().toISOString();
  const existing = await ctx.db
    .selectFrom("subscribers")
    .select(["id", "unsubscribedAt"])
    .where("email", "=", input.email)
    .executeTakeFirst();
  if (existing && existing.unsubscribedAt === null) {
    throw new Conflict(SUBSCRIBE_MESSAGES.alreadySubscribed, { email: [SUBSCRIBE_MESSAGES.alreadySubscribed] });
  }
  if (existing) {
    return ctx.db
      .updateTable("subscribers")
      .set({ unsubscribedAt: null, subscribedAt: now })
      .where("id", "=", existing.id)
      .returning(["id", "email", "subscribedAt"])
      .executeTakeFirstOrThrow();
  }
  const row = await ctx.db
    .insertInto("subscribers")
    .values({ email: input.email, subscribedAt: now })
    .onConflict((oc) => oc.column("email").doNothing())
    .returning(["id", "email", "subscribedAt"])
    .executeTakeFirst();
  // Two requests for one address at once: the loser sees the same answer as a repeat.
  if (!row) throw new Conflict(SUBSCRIBE_MESSAGES.alreadySubscribed, { email: [SUBSCRIBE_MESSAGES.alreadySubscribed] });
  return row;
}

/** Test hook. */
export async function resetSubscribeLimits(ctx: AppContext): Promise<void> {
  await subscribesPerIp.clear(ctx);
}

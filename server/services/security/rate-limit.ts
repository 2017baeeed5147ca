import { sql } from "kysely";
import type { AppContext } from "#server/context";
import { TooMany } from "#server/errors";
import { networkOf } from "./client-network";
import { compiledOnce } from "#db/compiled-query";

// Every purchase and sign-in counts or checks a limit first: both statements are kept compiled.
const windowOf = compiledOnce((db, $: { bucket: string; key: string }) =>
  db.selectFrom("rateLimits").select(["count", "resetAt"]).where("bucket", "=", $.bucket).where("key", "=", $.key),
);
const countAttempt = compiledOnce((db, $: { bucket: string; key: string; resetAt: string; now: string }) =>
  db
    .insertInto("rateLimits")
    .values({ bucket: $.bucket, key: $.key, count: 1, resetAt: $.resetAt })
    .onConflict((oc) =>
      oc.columns(["bucket", "key"]).doUpdateSet({
        count: sql<number>`CASE WHEN rate_limits.reset_at <= ${$.now} THEN 1 ELSE rate_limits.count + 1 END`,
        resetAt: sql<string>`CASE WHEN rate_limits.reset_at <= ${$.now} THEN excluded.reset_at ELSE rate_limits.reset_at END`,
      }),
    )
    .returning(["count", "resetAt"]),
);

/**
 * Fixed-window counters kept in the database (`rate_limits`), so that every worker of `npm start`
 * counts the same attempts: an attacker spread over the workers gets no more tries than one.
 * Each attempt is one atomic upsert; expired rows are deleted by the sweeper.
 */
export class RateLimiter {
  constructor(
    /** Names this limit's rows; unique per limiter. */
    private readonly bucket: string,
    /** A number, or read from the store's configuration (its variables are read once, in config.ts). */
    private readonly limit: number | ((ctx: AppContext) => number),
    private readonly windowMs: number,
  ) {}

  private limitFor(ctx: AppContext): number {
    return typeof this.limit === "number" ? this.limit : this.limit(ctx);
  }

  /** Seconds until the key may try again, or 0 when it is under the limit. */
  async retryAfter(ctx: AppContext, key: string): Promise<number> {
    const row = await windowOf.first(ctx.db, { bucket: this.bucket, key });
    return row && row.count >= this.limitFor(ctx) ? this.secondsUntil(ctx, row.resetAt) : 0;
  }

  /** Counts one attempt; returns the attempts in the current window, this one included. */
  async hit(ctx: AppContext, key: string): Promise<{ count: number; resetAt: string }> {
    const now = ctx.clock.now();
    const nowIso = now.toISOString();
    // A window that has ended starts over at this attempt; ISO instants in UTC compare as text.
    const resetAt = new Date(now.getTime() + this.windowMs).toISOString();
    const row = await countAttempt.first(ctx.db, { bucket: this.bucket, key, resetAt, now: nowIso });
    if (!row) throw new Error(`The ${this.bucket} limit's upsert returned no row.`);
    return row;
  }

  /**
   * Counts the attempt and throws TooMany with a readable message when it is over the limit.
   * Counting and judging in one statement means concurrent workers cannot both let the last try in.
   */
  async take(ctx: AppContext, key: string, message: (minutes: number) => string): Promise<void> {
    const { count, resetAt } = await this.hit(ctx, key);
    if (count > this.limitFor(ctx)) this.refuse(ctx, resetAt, message);
  }

  /** Throws TooMany with a readable message when the key is already at its limit; counts nothing. */
  async check(ctx: AppContext, key: string, message: (minutes: number) => string): Promise<void> {
    const seconds = await this.retryAfter(ctx, key);
    if (seconds > 0) throw new TooMany(message(Math.max(1, Math.ceil(seconds / 60))), seconds);
  }

  async reset(ctx: AppContext, key: string): Promise<void> {
    await ctx.db.deleteFrom("rateLimits").where("bucket", "=", this.bucket).where("key", "=", key).execute();
  }

  async clear(ctx: AppContext): Promise<void> {
    await ctx.db.deleteFrom("rateLimits").where("bucket", "=", this.bucket).execute();
  }

  private refuse(ctx: AppContext, resetAt: string, message: (minutes: number) => string): never {
    const seconds = Math.max(1, this.secondsUntil(ctx, resetAt));
    throw new TooMany(message(Math.max(1, Math.ceil(seconds / 60))), seconds);
  }

  private secondsUntil(ctx: AppContext, resetAt: string): number {
    return Math.max(0, Math.ceil((new Date(resetAt).getTime() - ctx.clock.now().getTime()) / 1000));
  }
}

/**
 * A limit per caller's network: the key is the client's address, counted as `networkOf` folds it
 * (an IPv6 /64 is one caller, ::ffff:1.2.3.4 is 1.2.3.4). Every per-address allowance is one.
 */
export class AddressRateLimiter extends RateLimiter {
  override retryAfter(ctx: AppContext, address: string): Promise<number> {
    return super.retryAfter(ctx, networkOf(address));
  }

  override hit(ctx: AppContext, address: string): Promise<{ count: number; resetAt: string }> {
    return super.hit(ctx, networkOf(address));
  }

  override reset(ctx: AppContext, address: string): Promise<void> {
    return super.reset(ctx, networkOf(address));
  }
}

/** For the sweeper: windows that have ended count nothing any more. */
export async function deleteExpiredRateLimits(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom("rateLimits").where("resetAt", "<=", ctx.clock.now().toISOString()).execute();
}

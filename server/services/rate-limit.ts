import { TooMany } from "../errors";

/**
 * Fixed-window counters kept in memory. The store runs as one process, so memory is the
 * right place: nothing to clean up across processes, and a restart forgives everyone.
 */
export class RateLimiter {
  private windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the key may try again, or 0 when it is under the limit. */
  retryAfter(key: string): number {
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= this.now()) return 0;
    return entry.count >= this.limit ? Math.ceil((entry.resetAt - this.now()) / 1000) : 0;
  }

  hit(key: string): void {
    const now = this.now();
    const entry = this.windows.get(key);
    if (!entry || entry.resetAt <= now) {
      this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
      if (this.windows.size > 50_000) this.sweep(now);
    } else {
      entry.count += 1;
    }
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  /** Throws TooMany with a readable message when the key is over its limit. */
  check(key: string, message: (minutes: number) => string): void {
    const seconds = this.retryAfter(key);
    if (seconds > 0) throw new TooMany(message(Math.max(1, Math.ceil(seconds / 60))), seconds);
  }

  clear(): void {
    this.windows.clear();
  }

  private sweep(now: number) {
    for (const [key, entry] of this.windows) if (entry.resetAt <= now) this.windows.delete(key);
  }
}

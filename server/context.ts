import type { Db } from "#db/client";
import type { Config } from "./config";

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** What every service receives: the database, the configuration and the clock. */
export interface AppContext {
  db: Db;
  config: Config;
  clock: Clock;
  /**
   * The shopper's early-access pass, when this request carries a good one (decision 0020): when
   * it was claimed. Set per request by the doors (server/http/gate/early-access.ts), never globally.
   */
  earlyAccess?: { openedAt: number };
}

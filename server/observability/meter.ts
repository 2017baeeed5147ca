/**
 * What the store tells its metrics (decision 0048), as plain calls: services, the page cache and
 * the request listener say what happened here and never see prom-client. Until a process installs
 * the Prometheus meter (server/observability/metrics.ts, in server.js), every call does nothing,
 * so tests and scripts pay nothing for it.
 */

/** Which kind of answer a request got: a bounded label, never a path. */
export type RouteKind = "page" | "cached_page" | "memo_page" | "api" | "trpc" | "asset" | "probe";

/** How a Process Order ended: placed, refused for stock or a per-customer limit, refused as asked (bad input, rate limit), or failed. */
export type OrderOutcome = "placed" | "sold_out" | "limit" | "refused" | "error";

export type PageCacheEvent = "hit" | "miss" | "eviction";

export type FulfilmentStep = "email" | "label";

export interface StoreMeter {
  request(kind: RouteKind, method: string, status: number, seconds: number): void;
  pageCache(event: PageCacheEvent): void;
  /** A request sent back to the line (or refused a purchase) for want of a waiting-room pass. */
  passRefused(): void;
  orderOutcome(outcome: OrderOutcome): void;
  /** An order became paid (once per order, whoever confirmed it). */
  paymentConfirmed(): void;
  fulfilmentFailed(step: FulfilmentStep): void;
  /** Messages the mail provider refused (the outbox records them as failed). */
  mailFailed(count: number): void;
  /** Shopper events left out (decision 0025's ceiling, a full queue, rows the database refused). */
  eventsDropped(count: number): void;
  /** API writes now waiting for their turn in this process's write lane (decision 0065). */
  writesWaiting(count: number): void;
  /** An API write answered 503 unrun: the write lane was full. */
  writeRefused(): void;
}

const nothing: StoreMeter = {
  request() {},
  pageCache() {},
  passRefused() {},
  orderOutcome() {},
  paymentConfirmed() {},
  fulfilmentFailed() {},
  mailFailed() {},
  eventsDropped() {},
  writesWaiting() {},
  writeRefused() {},
};

let current: StoreMeter = nothing;

/** The meter of this process. */
export function meter(): StoreMeter {
  return current;
}

/** Installs the meter every later call reaches (once per process; tests install a recorder). */
export function installMeter(next: StoreMeter | null): void {
  current = next ?? nothing;
}

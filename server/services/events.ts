import crypto from "node:crypto";
import type { Db } from "../../db/client";
import type { EventKind } from "../../db/schema";
import type { AppContext } from "../context";

/**
 * What shoppers do, recorded by the server for the funnel and the drop report (decision 0025):
 * no third-party script, no address, no cookie of its own. Events are kept in memory per process
 * and written in one transaction every second (or every FLUSH_AT events), so a page served from
 * the cache ahead of Express pays for an array push, not a write. A crash loses at most a second
 * of them; orders and payments are counted from the orders table anyway.
 */

export interface ShopperEvent {
  kind: EventKind;
  pageKind?: string | null;
  /** The bag's (or the signed-in user's) session id; hashed before it is kept. Null: no cookie. */
  sessionId?: string | null;
  /** A cookieless view that starts a visit (no Referer from the store itself). */
  entry?: boolean;
  productId?: number | null;
  orderId?: number | null;
  /** Defaults to the context's clock. */
  at?: Date;
}

interface Pending {
  ctx: AppContext;
  rows: Row[];
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
}

interface Row {
  kind: EventKind;
  pageKind: string | null;
  sessionKey: string | null;
  isEntry: number;
  productId: number | null;
  orderId: number | null;
  occurredAt: string;
}

export const FLUSH_EVERY_MS = 1000;
export const FLUSH_AT = 500;
/** More than this waiting (the database is down): the oldest are dropped rather than fill memory. */
const MAX_PENDING = 50_000;

const pendingByDb = new WeakMap<Db, Pending>();

/**
 * The key a session is counted by: an HMAC of its id with the store's secret, cut to 16 bytes, so
 * the events table cannot be joined back to a bag or a sign-in by anyone without the secret.
 */
export function sessionKeyOf(ctx: AppContext, sessionId: string): string {
  return crypto.createHmac("sha256", ctx.config.sessionSecret).update(sessionId).digest("base64url").slice(0, 22);
}

/** Queues one event; it reaches the database within FLUSH_EVERY_MS. Never throws. */
export function recordEvent(ctx: AppContext, event: ShopperEvent): void {
  try {
    let pending = pendingByDb.get(ctx.db);
    if (!pending) {
      pending = { ctx, rows: [], timer: null, flushing: null };
      pendingByDb.set(ctx.db, pending);
    }
    if (pending.rows.length >= MAX_PENDING) pending.rows.shift();
    pending.rows.push({
      kind: event.kind,
      pageKind: event.pageKind ?? null,
      sessionKey: event.sessionId ? sessionKeyOf(ctx, event.sessionId) : null,
      isEntry: event.entry && !event.sessionId ? 1 : 0,
      productId: event.productId ?? null,
      orderId: event.orderId ?? null,
      occurredAt: (event.at ?? ctx.clock.now()).toISOString(),
    });
    if (pending.rows.length >= FLUSH_AT) void flushEvents(ctx);
    else if (!pending.timer) {
      pending.timer = setTimeout(() => void flushEvents(ctx), FLUSH_EVERY_MS);
      pending.timer.unref();
    }
  } catch (error) {
    // Counting a shopper must never fail what the shopper asked for.
    console.error("Recording an event failed:", error);
  }
}

const CHUNK = 200;

/** Writes every queued event now, in one transaction (tests and a graceful stop call it). */
export async function flushEvents(ctx: AppContext): Promise<void> {
  const pending = pendingByDb.get(ctx.db);
  if (!pending) return;
  // One flush at a time per database; a second caller waits for it and then writes what is left.
  while (pending.flushing) await pending.flushing;
  if (pending.timer) clearTimeout(pending.timer);
  pending.timer = null;
  const rows = pending.rows;
  if (rows.length === 0) return;
  pending.rows = [];
  pending.flushing = ctx.db
    .transaction()
    .execute(async (trx) => {
      for (let i = 0; i < rows.length; i += CHUNK)
        await trx
          .insertInto("events")
          .values(rows.slice(i, i + CHUNK))
          .execute();
    })
    .catch((error: unknown) => {
      // The database was closed under the queue (a stop, a test's end): nothing left to write to.
      if (error instanceof Error && /driver has already been destroyed/.test(error.message)) return;
      // Put back, to be tried with the next batch (the database was busy or restarting).
      pending.rows = rows.concat(pending.rows).slice(-MAX_PENDING);
      console.error("Writing events failed:", error);
      if (!pending.timer) {
        pending.timer = setTimeout(() => void flushEvents(ctx), FLUSH_EVERY_MS);
        pending.timer.unref();
      }
    })
    .finally(() => {
      pending.flushing = null;
    });
  await pending.flushing;
}

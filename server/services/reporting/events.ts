import crypto from "node:crypto";
import { sql } from "kysely";
import type { Db } from "#db/client";
import type { EventKind } from "#db/schema";
import type { AppContext } from "#server/context";
import { meter } from "#server/observability/meter";
import { logError } from "#server/observability/log";

/**
 * What shoppers do, recorded by the server for the funnel and the drop report (decision 0025):
 * no third-party script, no address, no cookie of its own. Events are kept in memory per process
 * and written in one transaction every second (or every FLUSH_AT events), so a page served from
 * the cache ahead of Express pays for an array push, not a write. A crash loses at most a second
 * of them; orders and payments are counted from the orders table anyway.
 *
 * Bounded for strangers (decision 0040): ids out of range are not kept; a view asked to be counted
 * once a minute is (per session, page and minute); views without a session are counts in memory,
 * written once a minute; past EVENTS_PER_MINUTE a process drops what a stranger can cause (views,
 * bag adds, checkout views) and counts what it dropped, written as a `dropped` row; a batch the
 * database refuses is split until the rows it refuses stand alone, and those are dropped.
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
  /** Counted once per session, kind, page and product in a minute (page views). */
  oncePerMinute?: boolean;
}

interface Row {
  kind: EventKind;
  pageKind: string | null;
  sessionKey: string | null;
  isEntry: number;
  productId: number | null;
  orderId: number | null;
  occurredAt: string;
  count: number;
}

interface Pending {
  ctx: AppContext;
  rows: Row[];
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
  /** The minute (minutes since the epoch) that `taken` and `seen` count. */
  minute: number;
  taken: number;
  seen: Set<string>;
  /** Views without a session, by `minute|page kind|entry`, until they are written once a minute. */
  cookieless: Map<string, number>;
  cookielessTimer: NodeJS.Timeout | null;
  /** Events dropped since the last write (the ceiling, a full queue, rows the database refused). */
  dropped: number;
}

export const FLUSH_EVERY_MS = 1000;
export const FLUSH_AT = 500;
/** Cookieless views are written this often: a flood of them costs a few rows a minute. */
export const COUNTS_EVERY_MS = 60_000;
/**
 * Events one process takes in a minute of those a stranger can cause: with views counted once per
 * session, page and minute, an honest store's busiest minute is far below it.
 */
export const EVENTS_PER_MINUTE = 20_000;
/** The largest id a row may name (PostgreSQL's INTEGER): a longer one in a URL is no product. */
export const MAX_EVENT_ID = 2_147_483_647;
/** More than this waiting (the database is down): the oldest are dropped rather than fill memory. */
const MAX_PENDING = 50_000;
/** Kinds that follow from a purchase, bounded by the stock: never dropped by the ceiling. */
const ALWAYS_KEPT = new Set<EventKind>(["order", "payment"]);

const pendingByDb = new WeakMap<Db, Pending>();

/**
 * The keys of the sessions seen lately (issue 24): every page a shopper opens is an event of their
 * session, and the HMAC was a few percent of a cached page's CPU. Emptied when full, and when the
 * secret differs (tests run stores with other secrets in one process).
 */
const MAX_SESSION_KEYS = 20_000;
const sessionKeys = new Map<string, string>();
let keyedWith = "";

/**
 * The key a session is counted by: an HMAC of its id with the store's secret, cut to 16 bytes, so
 * the events table cannot be joined back to a bag or a sign-in by anyone without the secret.
 * Always the current SESSION_SECRET, never SESSION_SECRET_PREVIOUS (decision 0061): this key
 * authenticates nothing, it only groups one session's events, so there is nothing to accept under
 * an old secret. A rotation starts new keys: a session that spans it is counted under two.
 */
export function sessionKeyOf(ctx: AppContext, sessionId: string): string {
  const secret = ctx.config.sessionSecret;
  if (secret !== keyedWith) {
    sessionKeys.clear();
    keyedWith = secret;
  }
  let key = sessionKeys.get(sessionId);
  if (key === undefined) {
    key = crypto.createHmac("sha256", secret).update(sessionId).digest("base64url").slice(0, 22);
    // Bounded: a stranger can send any number of bag ids (each a valid shape), never grow this past it.
    if (sessionKeys.size >= MAX_SESSION_KEYS) sessionKeys.clear();
    sessionKeys.set(sessionId, key);
  }
  return key;
}

/** An id the events table can hold: a whole number in 1..MAX_EVENT_ID, else null. */
export function eventId(value: number | null | undefined): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= MAX_EVENT_ID ? value : null;
}

function pendingFor(ctx: AppContext): Pending {
  let pending = pendingByDb.get(ctx.db);
  if (!pending) {
    pending = {
      ctx,
      rows: [],
      timer: null,
      flushing: null,
      minute: Number.NaN,
      taken: 0,
      seen: new Set(),
      cookieless: new Map(),
      cookielessTimer: null,
      dropped: 0,
    };
    pendingByDb.set(ctx.db, pending);
  }
  return pending;
}

function scheduleFlush(ctx: AppContext, pending: Pending) {
  if (pending.rows.length >= FLUSH_AT) void flushEvents(ctx, { counts: false });
  else if (!pending.timer) {
    pending.timer = setTimeout(() => void flushEvents(ctx, { counts: false }), FLUSH_EVERY_MS);
    pending.timer.unref();
  }
}

/** Counts one dropped event; the count is written with the next batch. */
function drop(ctx: AppContext, pending: Pending, n = 1) {
  pending.dropped += n;
  meter().eventsDropped(n);
  scheduleFlush(ctx, pending);
}

/** Queues one event; it reaches the database within FLUSH_EVERY_MS. Never throws. */
export function recordEvent(ctx: AppContext, event: ShopperEvent): void {
  try {
    const pending = pendingFor(ctx);
    const at = event.at ?? ctx.clock.now();
    // A number, not the ISO text: most page views are a session's repeat within its minute and
    // stop at `seen` below, so the text is made only for an event that is kept.
    const minute = Math.floor(at.getTime() / 60_000);
    if (Number.isNaN(minute)) throw new RangeError("An event's time is not a valid date.");
    if (minute !== pending.minute) {
      pending.minute = minute;
      pending.taken = 0;
      pending.seen.clear();
    }
    const sessionKey = event.sessionId ? sessionKeyOf(ctx, event.sessionId) : null;
    const productId = eventId(event.productId);
    const pageKind = event.pageKind ?? null;
    const once = event.oncePerMinute && sessionKey ? `${sessionKey}|${event.kind}|${pageKind}|${productId}` : null;
    if (once !== null && pending.seen.has(once)) return;
    if (!ALWAYS_KEPT.has(event.kind)) {
      if (pending.taken >= EVENTS_PER_MINUTE) return drop(ctx, pending);
      pending.taken += 1;
    }
    if (once !== null) pending.seen.add(once);
    if (pending.rows.length >= MAX_PENDING) {
      pending.rows.shift();
      pending.dropped += 1;
      meter().eventsDropped(1);
    }
    pending.rows.push({
      kind: event.kind,
      pageKind,
      sessionKey,
      isEntry: event.entry && !event.sessionId ? 1 : 0,
      productId,
      orderId: eventId(event.orderId),
      occurredAt: at.toISOString(),
      count: 1,
    });
    scheduleFlush(ctx, pending);
  } catch (error) {
    // Counting a shopper must never fail what the shopper asked for.
    logError("Recording an event failed", error);
  }
}

/**
 * Counts a view by a visitor without any cookie (decision 0025: an entry when it starts a visit):
 * nothing tells such views apart, so they are a count per minute, page kind and entry, kept in
 * memory and written once a minute. Never throws.
 */
export function countCookielessView(ctx: AppContext, view: { pageKind: string; entry: boolean; at?: Date }): void {
  try {
    const pending = pendingFor(ctx);
    const minute = (view.at ?? ctx.clock.now()).toISOString().slice(0, 16);
    const key = `${minute}|${view.pageKind}|${view.entry ? 1 : 0}`;
    pending.cookieless.set(key, (pending.cookieless.get(key) ?? 0) + 1);
    if (!pending.cookielessTimer) {
      pending.cookielessTimer = setTimeout(() => void flushEvents(ctx), COUNTS_EVERY_MS);
      pending.cookielessTimer.unref();
    }
  } catch (error) {
    logError("Recording an event failed", error);
  }
}

const CHUNK = 200;

async function insertAll(db: Db, rows: Row[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += CHUNK)
      await trx
        .insertInto("events")
        .values(rows.slice(i, i + CHUNK))
        .execute();
  });
}

/** Whether the database answers at all: a refused batch then had a row it would not take. */
async function answers(db: Db): Promise<boolean> {
  try {
    await sql`SELECT 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a batch the database refused in halves, each half in a transaction of its own, until
 * every row it refuses stands alone (about 2·log2(n) tries for one): those are not written.
 * Returns how many were left out.
 */
async function insertSplit(db: Db, rows: Row[]): Promise<number> {
  try {
    await insertAll(db, rows);
    return 0;
  } catch (error) {
    if (rows.length === 1) {
      logError("An event the database refused was dropped", error);
      return 1;
    }
    const half = Math.ceil(rows.length / 2);
    return (await insertSplit(db, rows.slice(0, half))) + (await insertSplit(db, rows.slice(half)));
  }
}

/** The cookieless counts as rows, one per minute, page kind and entry; the map is emptied. */
function countRows(pending: Pending): Row[] {
  const rows = [...pending.cookieless].map(([key, count]): Row => {
    const [minute, pageKind, entry] = key.split("|") as [string, string, string];
    const isEntry = Number(entry);
    return { kind: "view", pageKind, sessionKey: null, isEntry, productId: null, orderId: null, occurredAt: `${minute}:00.000Z`, count };
  });
  pending.cookieless.clear();
  if (pending.cookielessTimer) clearTimeout(pending.cookielessTimer);
  pending.cookielessTimer = null;
  return rows;
}

/**
 * Writes every queued event now, in one transaction (tests and a graceful stop call it), with the
 * cookieless counts unless `counts` is false (the one-second timer leaves them to their minute).
 */
export async function flushEvents(ctx: AppContext, { counts = true }: { counts?: boolean } = {}): Promise<void> {
  const pending = pendingByDb.get(ctx.db);
  if (!pending) return;
  // One flush at a time per database; a second caller waits for it and then writes what is left.
  while (pending.flushing) await pending.flushing;
  if (pending.timer) clearTimeout(pending.timer);
  pending.timer = null;
  const rows = counts ? pending.rows.concat(countRows(pending)) : pending.rows;
  if (pending.dropped > 0) {
    const at = ctx.clock.now().toISOString();
    const dropped: Row = {
      kind: "dropped",
      pageKind: null,
      sessionKey: null,
      isEntry: 0,
      productId: null,
      orderId: null,
      occurredAt: at,
      count: pending.dropped,
    };
    rows.push(dropped);
    pending.dropped = 0;
  }
  if (rows.length === 0) return;
  pending.rows = [];
  pending.flushing = write(ctx, pending, rows).finally(() => {
    pending.flushing = null;
  });
  await pending.flushing;
}

async function write(ctx: AppContext, pending: Pending, rows: Row[]): Promise<void> {
  try {
    await insertAll(ctx.db, rows);
    return;
  } catch (error) {
    // The database was closed under the queue (a stop, a test's end): nothing left to write to.
    if (error instanceof Error && /driver has already been destroyed/.test(error.message)) return;
    if (!(await answers(ctx.db))) {
      // Put back, to be tried with the next batch (the database was busy or restarting).
      const kept = rows.concat(pending.rows);
      const over = kept.length - MAX_PENDING;
      pending.rows = over > 0 ? kept.slice(over) : kept;
      if (over > 0) {
        pending.dropped += over;
        meter().eventsDropped(over);
      }
      logError("Writing events failed", error);
      if (!pending.timer) {
        pending.timer = setTimeout(() => void flushEvents(ctx, { counts: false }), FLUSH_EVERY_MS);
        pending.timer.unref();
      }
      return;
    }
  }
  // The database answers but refused the batch: a row in it is one it will never take.
  const refused = await insertSplit(ctx.db, rows);
  if (refused > 0) drop(ctx, pending, refused);
}

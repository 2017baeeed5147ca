import { CHECKOUT_MESSAGES } from "#server/contracts/checkout";
import type { Db } from "#db/client";
import type { AppContext } from "#server/context";
import { Conflict } from "#server/errors";
import { logError } from "#server/observability/log";

/**
 * Sold-out misses (decision 0026): a shopper who reached Process Order after a product in the bag
 * had sold out. Checkout refuses them with a 409 (SoldOut, a Conflict); the refusal is recorded
 * here, outside the order's transaction (which rolled back), so the drop report can count them.
 *
 * They come all at once, when the stock runs out under a rush: 800 of the bench's 1,000 shoppers.
 * One write each competed with the bags and orders for SQLite's one writer, so they are queued
 * per process and written together within FLUSH_EVERY_MS (decision 0066), as events are. A crash
 * loses at most that much of a report figure; the drop report writes this process's queue first.
 */
export class SoldOut extends Conflict {
  constructor(
    readonly productId: number,
    readonly productName: string,
  ) {
    super(CHECKOUT_MESSAGES.soldOut(productName));
  }
}

interface Miss {
  productId: number;
  productName: string;
  sessionId: string | null;
  customerKey: string | null;
  createdAt: string;
}

interface Queue {
  ctx: AppContext;
  misses: Miss[];
  timer: NodeJS.Timeout | null;
  writing: Promise<void> | null;
}

export const FLUSH_EVERY_MS = 1000;
/** Written at once past this many, without waiting for the timer. */
export const FLUSH_AT = 200;
/** The database does not answer: past this many waiting, the oldest are dropped, not kept in memory. */
export const MAX_WAITING = 10_000;

const queues = new WeakMap<Db, Queue>();

function queueOf(ctx: AppContext): Queue {
  let queue = queues.get(ctx.db);
  if (!queue) {
    queue = { ctx, misses: [], timer: null, writing: null };
    queues.set(ctx.db, queue);
  }
  return queue;
}

function schedule(queue: Queue) {
  if (queue.misses.length >= FLUSH_AT) void flushSoldOutMisses(queue.ctx);
  else if (!queue.timer) {
    queue.timer = setTimeout(() => void flushSoldOutMisses(queue.ctx), FLUSH_EVERY_MS);
    queue.timer.unref();
  }
}

/** Queues the miss when `error` is a sold-out refusal; never throws (a failed record must not hide the 409). */
export function recordSoldOutMiss(
  ctx: AppContext,
  error: unknown,
  shopper: { sessionId: string | null; customerKey: string | null },
): void {
  if (!(error instanceof SoldOut)) return;
  try {
    const queue = queueOf(ctx);
    if (queue.misses.length >= MAX_WAITING) queue.misses.shift();
    queue.misses.push({
      productId: error.productId,
      productName: error.productName,
      sessionId: shopper.sessionId,
      customerKey: shopper.customerKey,
      createdAt: ctx.clock.now().toISOString(),
    });
    schedule(queue);
  } catch (failure) {
    logError("Could not record a sold-out miss", failure);
  }
}

const CHUNK = 200;

/** Writes this process's queued misses now, in one transaction (the drop report and a graceful stop call it). Never throws. */
export async function flushSoldOutMisses(ctx: AppContext): Promise<void> {
  const queue = queues.get(ctx.db);
  if (!queue) return;
  // One write at a time; a second caller waits for it, then writes what is left.
  while (queue.writing) await queue.writing;
  if (queue.timer) clearTimeout(queue.timer);
  queue.timer = null;
  const misses = queue.misses;
  if (misses.length === 0) return;
  queue.misses = [];
  queue.writing = write(queue, misses).finally(() => {
    queue.writing = null;
  });
  await queue.writing;
}

async function write(queue: Queue, misses: Miss[]): Promise<void> {
  try {
    await queue.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < misses.length; i += CHUNK)
        await trx
          .insertInto("soldOutMisses")
          .values(misses.slice(i, i + CHUNK))
          .execute();
    });
  } catch (error) {
    // The database was closed under the queue (a stop, a test's end): nothing left to write to.
    if (error instanceof Error && /driver has already been destroyed/.test(error.message)) return;
    logError("Could not record sold-out misses", error);
    // Kept for the next try (the database was busy or restarting), within the bound.
    const kept = misses.concat(queue.misses);
    queue.misses = kept.length > MAX_WAITING ? kept.slice(kept.length - MAX_WAITING) : kept;
    schedule(queue);
  }
}

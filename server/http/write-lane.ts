/**
 * Drop day's writes take turns with the pages (decision 0065).
 *
 * node answers whatever is ready in the order it comes: in a rush most of what is ready is writes
 * (bag, rates, Process Order, payment, 1.5–3 ms of CPU each), and a product page that costs 0.1 ms
 * waited behind every write read in the same turn of the event loop, 2 s at the 99th percentile.
 * The lane lets the writes of one worker run for at most `budgetMs` in a turn of the loop and then
 * yields: the pages and polls that arrived meanwhile are answered in the next turn, ahead of the
 * writes still waiting. Writes keep their order of arrival, and every turn runs at least one, so a
 * flood of pages slows them but never stops them.
 *
 * A write that waits on I/O (a vendor's API) does not hold the lane: the next turn starts the
 * next one, however many are still waiting on theirs. A cap there would let a slow vendor (a
 * Process Order waiting on Stripe) hold up every bag behind it. On PostgreSQL, where every write
 * waits on I/O, the write door uses no lane at all (writeLaneFor).
 */
import { meter } from "#server/observability/meter";

export interface WriteLane {
  /**
   * Runs `work` in its turn. Resolves as it does; false at once, with `work` never run, when
   * `waitingLimit` writes are already waiting (the caller answers "busy").
   */
  run(work: () => Promise<void>): Promise<boolean>;
  /** Writes waiting for their turn. */
  readonly waiting: number;
}

export interface WriteLaneOptions {
  /** Writes run back to back for at most this long before the lane yields to the event loop. */
  budgetMs?: number;
  /** Writes waiting, at most: a stranger's flood of posts is bounded, not queued without end. */
  waitingLimit?: number;
  /** The clock, in milliseconds (tests). */
  now?: () => number;
}

interface Waiting {
  work: () => Promise<void>;
  settle: (ran: boolean) => void;
  fail: (error: unknown) => void;
}

export function writeLane({ budgetMs = 10, waitingLimit = 4096, now = () => performance.now() }: WriteLaneOptions = {}): WriteLane {
  const queue: Waiting[] = [];
  let scheduled = false;
  let turnStartedAt = -Infinity;

  const schedule = () => {
    if (scheduled || queue.length === 0) return;
    scheduled = true;
    // Queued from the check phase, an immediate runs in the next turn, after node has read the sockets.
    setImmediate(newTurn);
  };
  const newTurn = () => {
    scheduled = false;
    turnStartedAt = now();
    startNext();
  };
  const startNext = () => {
    const next = queue.shift();
    if (!next) return;
    meter().writesWaiting(queue.length);
    // A write that waits on I/O lets the next turn start the next one.
    schedule();
    let promise: Promise<void>;
    try {
      promise = next.work();
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      () => done(next, null),
      (error: unknown) => done(next, error ?? new Error("A write failed")),
    );
  };
  const done = (write: Waiting, error: unknown) => {
    if (error === null) write.settle(true);
    else write.fail(error);
    // A write that finished in its own turn (SQLite's always do) hands on to the next while the
    // turn's budget lasts; else the next turn goes on.
    if (queue.length > 0 && now() - turnStartedAt < budgetMs) startNext();
    else schedule();
  };

  return {
    run(work) {
      if (queue.length >= waitingLimit) {
        meter().writeRefused();
        return Promise.resolve(false);
      }
      return new Promise<boolean>((settle, fail) => {
        queue.push({ work, settle, fail });
        meter().writesWaiting(queue.length);
        schedule();
      });
    },
    get waiting() {
      return queue.length;
    },
  };
}

import type { Db } from "#db/client";
import type { MailStream } from "#db/schema";

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text?: string;
  replyTo?: string;
  /** outbound: transactional (orders, support); broadcast: subscriber mail. */
  stream: MailStream;
  tag?: string;
  /** Extra headers, such as List-Unsubscribe on subscriber mail. Recorded with the message. */
  headers?: Record<string, string>;
  /**
   * Sends this message at most once under this key, even across a lost database (decision 0063):
   * `send` claims the key before calling the provider, and a later call finds what the first did.
   * One message per key, such as `order-<id>-confirmation`. `sendBatch` ignores it.
   */
  idempotencyKey?: string;
}

export interface MailResult {
  /** The mail_messages row that records this message. */
  recordId: number;
  status: "stored" | "sent" | "failed";
  error?: string;
}

export interface BatchMailResult extends MailResult {
  providerMessageId?: string;
}

/**
 * Runs inside the transaction that records a batch's results, so a caller's own bookkeeping
 * (which recipients were mailed) commits together with the outbox rows or not at all.
 */
export type SettleBatch = (db: Db, results: BatchMailResult[]) => Promise<void>;

/** Postmark's limit for one batch call; the local outbox keeps the same limit. */
export const MAX_BATCH_SIZE = 500;

/**
 * The provider call for a whole batch failed (network, timeout, a 4xx/5xx for the request):
 * nothing was recorded and nothing is known to have been sent, so the caller keeps the
 * messages queued for a later attempt.
 */
export class MailTransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MailTransportError";
  }
}

/** One interface, two implementations: Postmark when configured, the local outbox otherwise. */
export interface Mailer {
  readonly mode: "postmark" | "outbox";
  send(mail: OutgoingMail): Promise<MailResult>;
  /**
   * Sends up to MAX_BATCH_SIZE messages in one provider call and returns one result per message,
   * in order (per-message failures are results, not exceptions). Throws MailTransportError when
   * the call as a whole fails.
   */
  sendBatch(mails: OutgoingMail[], settle?: SettleBatch): Promise<BatchMailResult[]>;
}

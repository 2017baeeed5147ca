import { ServerClient, type Header, type Message, type Models } from "postmark";
import type { Db } from "#db/client";
import type { AppContext } from "#server/context";
import { meter } from "#server/observability/meter";
import { insertMail, keptUnder } from "./outbox-statements";
import {
  MAX_BATCH_SIZE,
  MailTransportError,
  type BatchMailResult,
  type MailResult,
  type Mailer,
  type OutgoingMail,
  type SettleBatch,
} from "./types";

export type { BatchMailResult, Mailer, MailResult, OutgoingMail, SettleBatch } from "./types";
export { MAX_BATCH_SIZE, MailTransportError } from "./types";

async function record(
  ctx: AppContext,
  mail: OutgoingMail,
  from: string,
  outcome: Omit<MailResult, "recordId"> & { providerMessageId?: string },
) {
  if (outcome.status === "failed") meter().mailFailed(1);
  const row = await insertMail.first(ctx.db, {
    stream: mail.stream,
    toAddress: mail.to,
    fromAddress: from,
    replyTo: mail.replyTo ?? null,
    subject: mail.subject,
    htmlBody: mail.html,
    textBody: mail.text ?? null,
    tag: mail.tag ?? null,
    status: outcome.status,
    providerMessageId: outcome.providerMessageId ?? null,
    error: outcome.error ?? null,
    headers: mail.headers ? JSON.stringify(mail.headers) : null,
    idempotencyKey: mail.idempotencyKey ?? null,
    createdAt: ctx.clock.now().toISOString(),
  });
  if (!row) {
    const kept = await doneUnder(ctx.db, mail.idempotencyKey!);
    if (kept) return kept;
    throw new Error("A message kept under this key was not found after its insert was refused.");
  }
  return { recordId: row.id, status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}) };
}

type Outcome = Omit<BatchMailResult, "recordId">;
type OutboundMessagesFilteringParameters = Models.OutboundMessagesFilteringParameters;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The metadata field a keyed message carries at Postmark, and the one its search filters on. */
export const KEY_FIELD = "idempotency_key";

/**
 * How long after a try to the provider a later try trusts a search that finds nothing. Postmark
 * documents no delay between accepting a message and showing it in its search, nor promises there
 * is none; a try that comes sooner (a job pass right after the database came back) waits for the
 * next one instead of sending. Shorter than the fulfilment job's first backoff (2 minutes), so a
 * retry after an ordinary failure is not held back by it.
 */
export const SEND_SETTLE_MS = 60_000;

/** The message stored or sent under `key`, if any: one statement, as it was recorded with its key. */
async function doneUnder(db: Db, key: string): Promise<MailResult | null> {
  const row = await keptUnder.first(db, { key });
  return row ? { recordId: row.id, status: row.status } : null;
}

/**
 * Claims `key` before Postmark is called. Null for the first try; for a later one, when the last
 * try called Postmark: that try's outcome may have been lost with the database.
 */
async function claimKey(db: Db, key: string, now: string): Promise<{ attemptedAt: string } | null> {
  const inserted = await db
    .insertInto("mailSends")
    .values({ idempotencyKey: key, attemptedAt: now })
    .onConflict((oc) => oc.column("idempotencyKey").doNothing())
    .returning("idempotencyKey")
    .executeTakeFirst();
  if (inserted) return null;
  return db.selectFrom("mailSends").select("attemptedAt").where("idempotencyKey", "=", key).executeTakeFirstOrThrow();
}

/** Records a batch's outcomes and runs the caller's bookkeeping in one transaction. */
async function recordBatch(ctx: AppContext, mails: OutgoingMail[], from: string, outcomes: Outcome[], settle?: SettleBatch) {
  return ctx.db.transaction().execute(async (trx) => {
    const results: BatchMailResult[] = [];
    for (const [i, mail] of mails.entries()) {
      const outcome = outcomes[i]!;
      const saved = await record({ ...ctx, db: trx }, mail, from, outcome);
      results.push({ ...saved, ...(outcome.providerMessageId ? { providerMessageId: outcome.providerMessageId } : {}) });
    }
    await settle?.(trx, results);
    return results;
  });
}

function checkBatchSize(mails: OutgoingMail[]) {
  if (mails.length > MAX_BATCH_SIZE) throw new RangeError(`A batch holds at most ${MAX_BATCH_SIZE} messages, not ${mails.length}.`);
}

/** The local outbox: the message is stored, and an admin can read it. Nothing leaves the machine. */
function outboxMailer(ctx: AppContext): Mailer {
  const from = ctx.config.postmark.from;
  return {
    mode: "outbox",
    async send(mail) {
      // Here the send is the insert, and the insert carries the key: a message stored under it is the answer.
      const done = mail.idempotencyKey ? await doneUnder(ctx.db, mail.idempotencyKey) : null;
      return done ?? record(ctx, mail, from, { status: "stored" });
    },
    async sendBatch(mails, settle) {
      checkBatchSize(mails);
      return recordBatch(
        ctx,
        mails,
        from,
        mails.map(() => ({ status: "stored" })),
        settle,
      );
    },
  };
}

const headerList = (headers: Record<string, string> | undefined): Header[] | undefined =>
  headers ? Object.entries(headers).map(([Name, Value]) => ({ Name, Value })) : undefined;

function postmarkMailer(ctx: AppContext, token: string): Mailer {
  const client = new ServerClient(token);
  const { from, broadcastStream } = ctx.config.postmark;
  const message = (mail: OutgoingMail): Message => ({
    From: from,
    To: mail.to,
    ReplyTo: mail.replyTo,
    Subject: mail.subject,
    HtmlBody: mail.html,
    TextBody: mail.text,
    Tag: mail.tag,
    Headers: headerList(mail.headers),
    MessageStream: mail.stream === "broadcast" ? broadcastStream : "outbound",
    ...(mail.idempotencyKey ? { Metadata: { [KEY_FIELD]: mail.idempotencyKey } } : {}),
  });
  /** Only the provider's failure is an outcome; the record that follows is written outside, so a lost database still throws. */
  const sendNow = async (mail: OutgoingMail): Promise<Outcome> => {
    try {
      const sent = await client.sendEmail(message(mail));
      return { status: "sent", providerMessageId: sent.MessageID };
    } catch (error) {
      return { status: "failed", error: messageOf(error) };
    }
  };
  /**
   * The id of a message Postmark accepted under this key, if any: its outbound search filters on
   * one metadata field (`metadata_<field>=<value>`), narrowed to the recipient so another store
   * sharing the server token (a staging copy) with the same key is not taken for this one.
   */
  const findSent = async (mail: OutgoingMail, key: string): Promise<string | null> => {
    const filter: OutboundMessagesFilteringParameters = {
      count: 50,
      offset: 0,
      recipient: mail.to,
      [`metadata_${KEY_FIELD}`]: key,
    };
    const { Messages } = await client.getOutboundMessages(filter);
    return Messages.find((m) => m.Metadata?.[KEY_FIELD] === key)?.MessageID ?? null;
  };
  return {
    mode: "postmark",
    async send(mail) {
      const key = mail.idempotencyKey;
      if (!key) return record(ctx, mail, from, await sendNow(mail));
      const done = await doneUnder(ctx.db, key);
      if (done) return done;
      const now = ctx.clock.now();
      const earlier = await claimKey(ctx.db, key, now.toISOString());
      if (earlier) {
        // An earlier try may have reached Postmark and lost its answer or its record: ask first.
        let found: string | null;
        try {
          found = await findSent(mail, key);
        } catch (error) {
          return record(ctx, mail, from, { status: "failed", error: `Could not ask Postmark about an earlier try: ${messageOf(error)}` });
        }
        if (found) return record(ctx, mail, from, { status: "sent", providerMessageId: found });
        if (now.getTime() - Date.parse(earlier.attemptedAt) < SEND_SETTLE_MS) {
          return record(ctx, mail, from, { status: "failed", error: "An earlier try's outcome is not known yet; tried again later." });
        }
        await ctx.db.updateTable("mailSends").set({ attemptedAt: now.toISOString() }).where("idempotencyKey", "=", key).execute();
      }
      return record(ctx, mail, from, await sendNow(mail));
    },
    async sendBatch(mails, settle) {
      checkBatchSize(mails);
      if (mails.length === 0) return [];
      let responses: Awaited<ReturnType<ServerClient["sendEmailBatch"]>>;
      try {
        responses = await client.sendEmailBatch(mails.map(message));
      } catch (error) {
        throw new MailTransportError(error instanceof Error ? error.message : String(error));
      }
      // Postmark answers one result per message, in order; ErrorCode 0 means accepted.
      const outcomes = mails.map((_, i): Outcome => {
        const response = responses[i];
        if (!response) return { status: "failed", error: "Postmark returned no result for this message." };
        return response.ErrorCode === 0
          ? { status: "sent", providerMessageId: response.MessageID }
          : { status: "failed", error: `${response.Message} (Postmark error ${response.ErrorCode})` };
      });
      return recordBatch(ctx, mails, from, outcomes, settle);
    },
  };
}

/** Postmark when POSTMARK_SERVER_TOKEN is set, the local outbox otherwise. `send` never throws. */
export function mailerFor(ctx: AppContext): Mailer {
  const token = ctx.config.postmark.serverToken;
  return token ? postmarkMailer(ctx, token) : outboxMailer(ctx);
}

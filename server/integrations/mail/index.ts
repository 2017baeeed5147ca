import { ServerClient, type Header, type Message } from "postmark";
import type { AppContext } from "#server/context";
import { meter } from "#server/observability/meter";
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
  const row = await ctx.db
    .insertInto("mailMessages")
    .values({
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
      createdAt: ctx.clock.now().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { recordId: row.id, status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}) };
}

type Outcome = Omit<BatchMailResult, "recordId">;

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
    send: (mail) => record(ctx, mail, from, { status: "stored" }),
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
  });
  return {
    mode: "postmark",
    async send(mail) {
      try {
        const sent = await client.sendEmail(message(mail));
        return record(ctx, mail, from, { status: "sent", providerMessageId: sent.MessageID });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return record(ctx, mail, from, { status: "failed", error: message });
      }
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

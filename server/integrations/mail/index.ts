import { ServerClient } from "postmark";
import type { AppContext } from "../../context";
import type { MailResult, Mailer, OutgoingMail } from "./types";

export type { Mailer, MailResult, OutgoingMail } from "./types";

async function record(ctx: AppContext, mail: OutgoingMail, from: string, outcome: Omit<MailResult, "recordId"> & { providerMessageId?: string }) {
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
      createdAt: ctx.clock.now().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { recordId: row.id, status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}) };
}

/** The local outbox: the message is stored, and an admin can read it. Nothing leaves the machine. */
function outboxMailer(ctx: AppContext): Mailer {
  return {
    mode: "outbox",
    send: (mail) => record(ctx, mail, ctx.config.postmark.from, { status: "stored" }),
  };
}

function postmarkMailer(ctx: AppContext, token: string): Mailer {
  const client = new ServerClient(token);
  const { from, broadcastStream } = ctx.config.postmark;
  return {
    mode: "postmark",
    async send(mail) {
      try {
        const sent = await client.sendEmail({
          From: from,
          To: mail.to,
          ReplyTo: mail.replyTo,
          Subject: mail.subject,
          HtmlBody: mail.html,
          TextBody: mail.text,
          Tag: mail.tag,
          MessageStream: mail.stream === "broadcast" ? broadcastStream : "outbound",
        });
        return record(ctx, mail, from, { status: "sent", providerMessageId: sent.MessageID });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return record(ctx, mail, from, { status: "failed", error: message });
      }
    },
  };
}

/** Postmark when POSTMARK_SERVER_TOKEN is set, the local outbox otherwise. Never throws on send. */
export function mailerFor(ctx: AppContext): Mailer {
  const token = ctx.config.postmark.serverToken;
  return token ? postmarkMailer(ctx, token) : outboxMailer(ctx);
}

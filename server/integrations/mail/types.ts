import type { MailStream } from "../../../db/schema";

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text?: string;
  replyTo?: string;
  /** outbound: transactional (orders, support); broadcast: subscriber mail. */
  stream: MailStream;
  tag?: string;
}

export interface MailResult {
  /** The mail_messages row that records this message. */
  recordId: number;
  status: "stored" | "sent" | "failed";
  error?: string;
}

/** One interface, two implementations: Postmark when configured, the local outbox otherwise. */
export interface Mailer {
  readonly mode: "postmark" | "outbox";
  send(mail: OutgoingMail): Promise<MailResult>;
}

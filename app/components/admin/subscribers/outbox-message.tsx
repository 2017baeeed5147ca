import { MailStatusBadge, StreamLabel, type MailStream } from "./outbox-badges";
import { formatEastern } from "./format";

export interface OutboxMessage {
  id: number;
  stream: MailStream;
  toAddress: string;
  fromAddress: string;
  replyTo: string | null;
  subject: string;
  htmlBody: string;
  textBody: string | null;
  tag: string | null;
  status: "stored" | "sent" | "failed";
  providerMessageId: string | null;
  error: string | null;
  createdAt: string;
  headers: Record<string, string>;
}

/**
 * One message as it was sent. The HTML is drawn in a frame with `sandbox=""`: no scripts, no
 * forms, no access to this page, whatever the message holds.
 */
export function MessageDetail({ message }: { message: OutboxMessage }) {
  const rows: [string, string | null][] = [
    ["From", message.fromAddress],
    ["To", message.toAddress],
    ["Reply-To", message.replyTo],
    ["Date", `${formatEastern(message.createdAt, "EEE, MMM d, yyyy · h:mm:ss a")} ET`],
    ["Tag", message.tag],
    ["Provider ID", message.providerMessageId],
    ...Object.entries(message.headers),
  ];
  return (
    <article
      aria-labelledby="outbox-message-subject"
      className="space-y-4 rounded-lg border border-border bg-card p-4 sm:p-5"
      data-testid="outbox-message"
    >
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <StreamLabel stream={message.stream} />
          <MailStatusBadge status={message.status} />
        </div>
        <h3 id="outbox-message-subject" className="text-lg font-semibold break-words">
          {message.subject}
        </h3>
      </header>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_minmax(0,1fr)] sm:gap-y-1.5">
        {rows
          .filter((row): row is [string, string] => Boolean(row[1]))
          .map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="pt-1 text-xs text-muted-foreground sm:pt-0 sm:text-sm">{name}</dt>
              <dd className="font-mono text-[12.5px] break-all">{value}</dd>
            </div>
          ))}
      </dl>
      {message.error ? (
        <p role="alert" className="rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm">
          {message.error}
        </p>
      ) : null}
      <section aria-label="HTML version" className="overflow-hidden rounded-md border border-border bg-white">
        <iframe title={`HTML of “${message.subject}”`} sandbox="" srcDoc={message.htmlBody} className="block h-[38rem] w-full bg-white" />
      </section>
      {message.textBody ? (
        <details open className="rounded-md border border-border">
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium select-none">Plain-text version</summary>
          <pre
            className="max-h-96 overflow-auto border-t border-border px-3 py-3 font-mono text-[12.5px] leading-relaxed whitespace-pre-wrap"
            data-testid="outbox-text"
          >
            {message.textBody}
          </pre>
        </details>
      ) : null}
    </article>
  );
}

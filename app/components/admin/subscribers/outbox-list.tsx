import { Link, useSearchParams } from "@remix-run/react";
import { MailStatusBadge, StreamLabel, type MailStream } from "./outbox-badges";
import { count, formatEastern } from "./format";
import { cn } from "#app/lib/utils";

export interface OutboxRow {
  id: number;
  stream: MailStream;
  toAddress: string;
  subject: string;
  status: "stored" | "sent" | "failed";
  createdAt: string;
}

/** The outbox's list: each message a link to itself (?id=), keeping the filters and the page. */
export function MessageList({
  messages,
  total,
  page,
  pages,
  selectedId,
}: {
  messages: OutboxRow[];
  total: number;
  page: number;
  pages: number;
  selectedId: number | null;
}) {
  const [params] = useSearchParams();
  const href = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) next.delete(key);
      else next.set(key, value);
    }
    return `?${next.toString()}`;
  };

  return (
    <section aria-labelledby="outbox-list-heading" className="overflow-hidden rounded-lg border border-border bg-card">
      <h3
        id="outbox-list-heading"
        className="flex items-center justify-between border-b border-border px-4 py-3 text-xs font-semibold tracking-[0.16em] text-muted-foreground uppercase"
      >
        <span>Messages</span>
        <span className="tracking-normal normal-case tabular-nums">{count(total, "message")}</span>
      </h3>
      {messages.length === 0 ? (
        <p className="px-4 py-12 text-center text-sm text-muted-foreground">No e-mail here yet.</p>
      ) : (
        <ul className="divide-y divide-border" data-testid="outbox-list">
          {messages.map((m) => {
            const selected = m.id === selectedId;
            return (
              <li key={m.id}>
                <Link
                  to={href({ id: String(m.id) })}
                  preventScrollReset
                  aria-current={selected ? "true" : undefined}
                  data-testid="outbox-row"
                  className={cn(
                    "block space-y-1 px-4 py-3 outline-none transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
                    selected ? "bg-foreground/[0.07] shadow-[inset_3px_0_0_var(--color-foreground)]" : "hover:bg-foreground/[0.03]",
                  )}
                >
                  <span className="flex items-start justify-between gap-3">
                    <span className="min-w-0 truncate text-sm font-medium">{m.subject}</span>
                    <MailStatusBadge status={m.status} />
                  </span>
                  <span className="flex items-center justify-between gap-3 text-xs text-muted-foreground">
                    <span className="min-w-0 truncate">
                      To <span className="text-foreground/85">{m.toAddress}</span>
                    </span>
                    <time dateTime={m.createdAt} className="shrink-0 tabular-nums">
                      {formatEastern(m.createdAt, "MMM d, h:mm a")}
                    </time>
                  </span>
                  <StreamLabel stream={m.stream} />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      {pages > 1 ? (
        <nav aria-label="Outbox pages" className="flex items-center justify-between border-t border-border px-4 py-3 text-sm">
          {page > 1 ? (
            <Link to={href({ page: String(page - 1), id: null })} className="underline-offset-4 hover:underline">
              ← Newer
            </Link>
          ) : (
            <span />
          )}
          <span className="text-xs text-muted-foreground">
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <Link to={href({ page: String(page + 1), id: null })} className="underline-offset-4 hover:underline">
              Older →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  );
}

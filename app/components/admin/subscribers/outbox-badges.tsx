import { cn } from "#app/lib/utils";

/** Postmark's two streams, as the store names them. */
export type MailStream = "outbound" | "broadcast";

const STATUS = {
  stored: { label: "In outbox", className: "border-border text-muted-foreground" },
  sent: { label: "Sent", className: "border-green-400/40 bg-green-500/15 text-green-200" },
  failed: { label: "Failed", className: "border-red-400/40 bg-red-500/15 text-red-200" },
} as const;

export function MailStatusBadge({ status }: { status: keyof typeof STATUS }) {
  const style = STATUS[status];
  return (
    <span
      className={cn(
        "inline-flex shrink-0 items-center rounded-full border px-2 py-0.5 text-[11px] font-medium whitespace-nowrap",
        style.className,
      )}
    >
      {style.label}
    </span>
  );
}

/** outbound is Postmark's transactional stream; broadcast carries subscriber mail. */
export function StreamLabel({ stream }: { stream: MailStream }) {
  return (
    <span className="inline-block text-[11px] font-semibold tracking-[0.12em] text-muted-foreground/80 uppercase">
      {stream === "broadcast" ? "Broadcast" : "Transactional"}
    </span>
  );
}

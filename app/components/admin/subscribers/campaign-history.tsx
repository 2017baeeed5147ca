import { useQuery } from "@tanstack/react-query";
import { CircleAlert, CircleCheck, Clock, Loader, RotateCw } from "lucide-react";
import type { CampaignProgress, CampaignState } from "#server/contracts/admin-subscribers";
import { count, formatEastern } from "./format";
import { isRunning, type CampaignSender } from "./use-campaign-sender";
import { Button } from "#app/components/ui/button";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";

const STATE: Record<CampaignState, { label: string; className: string; icon: typeof Clock }> = {
  queued: { label: "Queued", className: "border-border text-muted-foreground", icon: Clock },
  sending: { label: "Sending", className: "border-blue-400/40 bg-blue-500/15 text-blue-200", icon: Loader },
  sent: { label: "Sent", className: "border-green-400/40 bg-green-500/15 text-green-200", icon: CircleCheck },
  partial: { label: "Incomplete", className: "border-yellow-400/40 bg-yellow-400/15 text-yellow-200", icon: CircleAlert },
};

export function CampaignBadge({ status }: { status: CampaignState }) {
  const style = STATE[status];
  const Icon = style.icon;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 text-xs font-medium whitespace-nowrap",
        style.className,
      )}
    >
      <Icon aria-hidden className={cn("size-3.5", status === "sending" && "motion-safe:animate-spin")} />
      {style.label}
    </span>
  );
}

/** How far a send got: a bar over everyone it was for, and the counts in words. */
export function SendMeter({ progress }: { progress: CampaignProgress }) {
  const done = progress.sent + progress.failed + progress.skipped;
  const percent = progress.total ? Math.round((done / progress.total) * 100) : 0;
  return (
    <div className="space-y-2">
      <div
        role="progressbar"
        aria-label={`Sending “${progress.subject}”`}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={done}
        aria-valuetext={`${done} of ${progress.total}`}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-foreground transition-[width] duration-500" style={{ width: `${percent}%` }} />
      </div>
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground tabular-nums">
        <span>
          <span className="font-medium text-foreground">{progress.sent.toLocaleString("en-US")}</span> of{" "}
          {count(progress.total, "subscriber")} sent
        </span>
        {progress.failed ? <span className="text-red-300">{progress.failed.toLocaleString("en-US")} failed</span> : null}
        {progress.skipped ? <span>{progress.skipped.toLocaleString("en-US")} unsubscribed meanwhile</span> : null}
      </p>
    </div>
  );
}

/** The record of recent sends: what, when, by whom, how it went; an incomplete one can resume. */
export function CampaignHistory({ sender }: { sender: CampaignSender }) {
  const trpc = useTRPC();
  const campaigns = useQuery({
    ...trpc.admin.subscribers.campaigns.queryOptions(),
    refetchInterval: (query) => (query.state.data?.some(isRunning) ? 2000 : false),
  });
  return (
    <section aria-labelledby="recent-sends" className="rounded-lg border border-border bg-card">
      <h3
        id="recent-sends"
        className="border-b border-border px-4 py-3 text-xs font-semibold tracking-[0.16em] text-muted-foreground uppercase"
      >
        Recent sends
      </h3>
      {campaigns.isError ? (
        <p className="px-4 py-4 text-sm text-muted-foreground">The send history could not be loaded.</p>
      ) : !campaigns.data ? (
        <p className="px-4 py-4 text-sm text-muted-foreground">Loading…</p>
      ) : campaigns.data.length === 0 ? (
        <p className="px-4 py-4 text-sm text-muted-foreground">Nothing sent yet. Your sends and their results appear here.</p>
      ) : (
        <ul className="divide-y divide-border">
          {campaigns.data.map((c) => (
            <li key={c.id} className="space-y-2 px-4 py-3" data-testid="campaign-row">
              <div className="flex items-start justify-between gap-3">
                <p className="min-w-0 text-sm font-medium break-words">{c.subject}</p>
                <CampaignBadge status={c.status} />
              </div>
              <p className="text-xs text-muted-foreground">
                {formatEastern(c.createdAt, "MMM d, yyyy · h:mm a")} ET{c.createdBy ? ` · by ${c.createdBy}` : ""}
              </p>
              {isRunning(c) || c.status === "partial" ? (
                <SendMeter progress={c} />
              ) : (
                <p className="text-xs text-muted-foreground">{count(c.sent, "subscriber")} mailed</p>
              )}
              {c.status === "partial" ? (
                <div className="flex flex-wrap items-center gap-3">
                  {c.lastError ? <p className="min-w-0 flex-1 text-xs break-words text-red-300">{c.lastError}</p> : null}
                  <Button size="sm" variant="outline" onClick={() => sender.resume(c.id)} disabled={sender.busy}>
                    <RotateCw aria-hidden />
                    Resume
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import { useMutation } from "@tanstack/react-query";
import { CircleAlert, Eye, PencilLine, Send } from "lucide-react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import { COMPOSE_MISSING, SUBJECT_MAX, type ComposeEmailInput } from "#server/contracts/admin-subscribers";
import { CampaignHistory, SendMeter } from "./campaign-history";
import { count } from "./format";
import type { CampaignSender } from "./use-campaign-sender";
import { Spinner } from "#app/components/spinner";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";
import { Label } from "#app/components/ui/label";
import { useTRPC } from "#app/lib/trpc";
import { cn } from "#app/lib/utils";

export type ComposeMode = "edit" | "preview";

interface ComposeProps {
  draft: ComposeEmailInput;
  onDraftChange: (draft: ComposeEmailInput) => void;
  mode: ComposeMode;
  onModeChange: (mode: ComposeMode) => void;
  subscriberCount: number;
  sender: CampaignSender;
}

/**
 * docs/spec.md §2/§4 "Compose Email": edit, then "Continue to Preview", then send. The preview is the
 * message exactly as it goes out (sanitised by the server, in its frame, with the unsubscribe
 * footer), drawn in a sandboxed frame where nothing in it can run.
 */
export function ComposePanel({ draft, onDraftChange, mode, onModeChange, subscriberCount, sender }: ComposeProps) {
  const hydrated = useHydrated();
  const [attempted, setAttempted] = useState(false);
  const missing = !draft.subject.trim() || !draft.htmlContent.trim();
  const showMissing = missing && (attempted || mode === "preview");

  function continueToPreview() {
    setAttempted(true);
    if (!missing) onModeChange("preview");
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="min-w-0 space-y-4 rounded-lg border border-border bg-card p-4 sm:p-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-muted-foreground">
            To <span className="font-medium text-foreground">all {count(subscriberCount, "subscriber")}</span>
          </p>
          <ModeToggle mode={mode} onChange={onModeChange} disabled={!hydrated} />
        </div>

        {sender.running ? (
          <div className="rounded-md border border-border bg-background/50 p-3" aria-live="polite">
            <p className="mb-2 flex items-center gap-2 text-sm font-medium">
              <Spinner className="size-4" label="Sending" />
              Sending “{sender.running.subject}”…
            </p>
            <SendMeter progress={sender.running} />
          </div>
        ) : null}

        {mode === "edit" ? (
          <div className="space-y-4">
            <div className="space-y-2">
              <Label htmlFor="compose-subject">Subject</Label>
              <Input
                id="compose-subject"
                value={draft.subject}
                maxLength={SUBJECT_MAX}
                placeholder="What is this e-mail about?"
                aria-invalid={attempted && !draft.subject.trim() ? true : undefined}
                aria-describedby={showMissing ? "compose-missing" : undefined}
                onChange={(e) => onDraftChange({ ...draft, subject: e.target.value })}
              />
            </div>
            <div className="space-y-2">
              <div className="flex items-end justify-between gap-2">
                <Label htmlFor="compose-content">HTML Content</Label>
                <span className="text-xs text-muted-foreground tabular-nums">
                  {draft.htmlContent.length.toLocaleString("en-US")} characters
                </span>
              </div>
              <textarea
                id="compose-content"
                value={draft.htmlContent}
                spellCheck={false}
                placeholder="<p>Write your message in HTML…</p>"
                aria-invalid={attempted && !draft.htmlContent.trim() ? true : undefined}
                aria-describedby={`compose-content-help${showMissing ? " compose-missing" : ""}`}
                onChange={(e) => onDraftChange({ ...draft, htmlContent: e.target.value })}
                className={cn(
                  "block min-h-[22rem] w-full resize-y rounded-md border border-input bg-background/60 px-3 py-2.5 font-mono text-[13px] leading-relaxed text-foreground shadow-xs outline-none",
                  "placeholder:text-muted-foreground hover:border-foreground/40 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40",
                  "aria-invalid:border-destructive aria-invalid:ring-2 aria-invalid:ring-destructive/30",
                )}
              />
              <p id="compose-content-help" className="text-xs text-muted-foreground">
                Scripts, forms and external styles are removed before sending. Every message gets an unsubscribe link.
              </p>
            </div>
          </div>
        ) : (
          <Preview draft={draft} />
        )}

        {showMissing ? (
          <p
            id="compose-missing"
            role="alert"
            className="flex items-center gap-2 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm"
          >
            <CircleAlert aria-hidden className="size-4 shrink-0 text-red-300" />
            {COMPOSE_MISSING}
          </p>
        ) : null}

        <div className="flex flex-col-reverse gap-2 border-t border-border pt-4 sm:flex-row sm:justify-end">
          {mode === "edit" ? (
            <Button onClick={continueToPreview} disabled={!hydrated}>
              <Eye aria-hidden />
              Continue to Preview
            </Button>
          ) : (
            <>
              <Button variant="outline" onClick={() => onModeChange("edit")}>
                <PencilLine aria-hidden />
                Back to Edit
              </Button>
              <Button
                onClick={() => sender.send({ subject: draft.subject, htmlContent: draft.htmlContent })}
                disabled={missing || sender.busy || subscriberCount === 0}
                aria-busy={sender.busy}
              >
                <Send aria-hidden />
                {sender.busy ? "Sending..." : `Send to ${count(subscriberCount, "subscriber")}`}
              </Button>
            </>
          )}
        </div>
      </div>
      <div className="min-w-0">
        <CampaignHistory sender={sender} />
      </div>
    </div>
  );
}

function ModeToggle({ mode, onChange, disabled }: { mode: ComposeMode; onChange: (mode: ComposeMode) => void; disabled: boolean }) {
  const options = [
    { value: "edit", label: "Edit", icon: PencilLine },
    { value: "preview", label: "Preview", icon: Eye },
  ] as const;
  return (
    <div role="group" aria-label="Edit or preview" className="inline-flex rounded-md bg-muted p-1">
      {options.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={mode === value}
          disabled={disabled}
          onClick={() => onChange(value)}
          className={cn(
            "inline-flex h-9 items-center gap-1.5 rounded-[calc(var(--radius)-2px)] px-3 text-sm font-medium transition-colors outline-none focus-visible:ring-2 focus-visible:ring-ring",
            mode === value ? "bg-background text-foreground shadow" : "text-muted-foreground hover:text-foreground",
          )}
        >
          <Icon aria-hidden className="size-4" />
          {label}
        </button>
      ))}
    </div>
  );
}

function Preview({ draft }: { draft: ComposeEmailInput }) {
  const trpc = useTRPC();
  const render = useMutation(trpc.admin.subscribers.preview.mutationOptions());
  const { mutate } = render;
  useEffect(() => {
    mutate({ subject: draft.subject, htmlContent: draft.htmlContent });
  }, [mutate, draft.subject, draft.htmlContent]);

  return (
    <div className="space-y-3">
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 rounded-md border border-border bg-background/50 px-3 py-2.5 text-sm">
        <dt className="text-muted-foreground">Subject</dt>
        <dd className="font-medium break-words" data-testid="preview-subject">
          {draft.subject.trim() || "—"}
        </dd>
      </dl>
      <div className="relative overflow-hidden rounded-md border border-border bg-[#f3f2ef]">
        {render.data ? (
          <iframe title="Email preview" sandbox="" srcDoc={render.data.html} className="block h-[36rem] w-full bg-[#f3f2ef]" />
        ) : (
          <div className="flex h-[36rem] items-center justify-center">
            {render.isError ? (
              <p className="px-6 text-center text-sm text-neutral-700">The preview could not be drawn: {render.error.message}</p>
            ) : (
              <Spinner className="size-8 text-neutral-700" label="Drawing the preview" />
            )}
          </div>
        )}
      </div>
    </div>
  );
}

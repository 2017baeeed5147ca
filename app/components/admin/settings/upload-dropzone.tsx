import { UploadCloud, X } from "lucide-react";
import { useRef, useState, type DragEvent } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { UploadPhase, UploadProgress } from "./use-media-upload";
import type { MediaKind } from "#server/contracts/admin-settings";
import { Spinner } from "#app/components/spinner";
import { Button } from "#app/components/ui/button";
import { cn } from "#app/lib/utils";

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Drop a file or choose one; while it uploads, a progress bar with a Cancel button. */
export function UploadDropzone({
  kind,
  formats,
  phase,
  progress,
  onFile,
  onCancel,
}: {
  kind: MediaKind;
  formats: string;
  phase: UploadPhase;
  progress: UploadProgress | null;
  onFile: (file: File) => void;
  onCancel: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hydrated = useHydrated();
  const noun = kind === "video" ? "video" : "audio";
  const idle = phase === "idle";

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file && idle) onFile(file);
  };

  return (
    <div
      onDragOver={(event) => {
        event.preventDefault();
        if (idle) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={cn(
        "rounded-md border border-dashed px-4 py-4 transition-colors",
        over ? "border-foreground bg-foreground/5" : "border-input bg-background/30",
      )}
    >
      {phase === "uploading" && progress ? (
        <UploadBar kind={kind} progress={progress} onCancel={onCancel} />
      ) : phase === "saving" ? (
        <p className="flex min-h-11 items-center gap-3 text-sm">
          <Spinner className="size-4" label={`Saving the uploaded ${noun}`} />
          Saving it as the background {kind === "video" ? "video" : "music"}…
        </p>
      ) : (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
          <UploadCloud aria-hidden className="hidden size-6 shrink-0 text-muted-foreground sm:block" />
          <div className="min-w-0 flex-1 text-sm">
            <p>Drop {kind === "video" ? "a video" : "an audio"} file here, or choose one.</p>
            <p className="text-xs text-muted-foreground">{formats}</p>
          </div>
          <Button type="button" variant="outline" disabled={!hydrated} onClick={() => input.current?.click()} className="shrink-0">
            Choose {noun} file
          </Button>
          <input
            ref={input}
            type="file"
            accept={`${kind}/*`}
            hidden
            aria-label={`Upload ${kind === "video" ? "a" : "an"} ${noun} file`}
            data-testid={`${kind}-file-input`}
            onChange={(event) => {
              const file = event.target.files?.[0];
              // Cleared at once, so choosing the same file again still uploads it.
              event.target.value = "";
              if (file) onFile(file);
            }}
          />
        </div>
      )}
      <noscript>
        <p className="mt-3 text-xs text-muted-foreground">Uploading needs JavaScript. You can still save a URL below.</p>
      </noscript>
    </div>
  );
}

function UploadBar({ kind, progress, onCancel }: { kind: MediaKind; progress: UploadProgress; onCancel: () => void }) {
  const percent = progress.total > 0 ? Math.min(100, Math.round((progress.loaded / progress.total) * 100)) : 0;
  return (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap justify-between gap-x-3 gap-y-1 text-xs">
          <span className="font-medium whitespace-nowrap">Uploading {kind === "video" ? "video" : "audio"}…</span>
          <span className="whitespace-nowrap text-muted-foreground tabular-nums">
            {percent}% · {mb(progress.loaded)} of {mb(progress.total)}
          </span>
        </div>
        <div
          role="progressbar"
          aria-label={`Uploading ${kind}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 overflow-hidden rounded-full bg-muted"
        >
          <div className="h-full rounded-full bg-foreground transition-[width] duration-200" style={{ width: `${percent}%` }} />
        </div>
      </div>
      <Button type="button" variant="ghost" size="icon" onClick={onCancel} aria-label="Cancel upload">
        <X aria-hidden />
      </Button>
    </div>
  );
}

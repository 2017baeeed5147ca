import { Film, Music } from "lucide-react";
import { useCallback, useEffect, useRef } from "react";
import type { SettingsActionData } from "#server/contracts/admin-settings";
import { InlineNotice, SettingsCard } from "./settings-card";
import { Field } from "#app/components/field";
import { UploadDropzone } from "./upload-dropzone";
import { useIntentFetcher } from "./use-intent-fetcher";
import { useMediaUpload } from "./use-media-upload";
import type { MediaKind } from "#server/contracts/admin-settings";
import { Button } from "#app/components/ui/button";
import { Input } from "#app/components/ui/input";

const COPY = {
  video: {
    intent: "background-video",
    field: "videoUrl",
    title: "Background Video",
    description: "Loops, muted, behind the landing page.",
    formats: "MP4, MOV or WebM, up to 50 MB",
    urlLabel: "Video URL",
    icon: Film,
  },
  audio: {
    intent: "background-music",
    field: "musicUrl",
    title: "Background Music",
    description: "The landing page's music player, from 16 seconds in, looping.",
    formats: "MP3, M4A, OGG or WAV, up to 50 MB",
    urlLabel: "Music URL",
    icon: Music,
  },
} as const;

/**
 * Background Video and Background Music: upload a file (progress bar; the returned URL is then
 * saved as the setting) or give a URL. Both saves go through the same form action and toasts.
 */
export function MediaSetting({ kind, current }: { kind: MediaKind; current: string }) {
  const copy = COPY[kind];
  const { fetcher, result, pending, inlineNotice } = useIntentFetcher<SettingsActionData>(copy.intent);
  const submit = useRef(fetcher.submit);
  submit.current = fetcher.submit;
  const save = useCallback((url: string) => submit.current({ intent: copy.intent, [copy.field]: url }, { method: "post" }), [copy]);
  const upload = useMediaUpload(kind, save);

  // The upload's "saving" phase ends when the save's answer is in, success or not (docs/spec.md §4).
  const { saved } = upload;
  const busy = useRef(false);
  useEffect(() => {
    if (fetcher.state !== "idle") busy.current = true;
    else if (busy.current) {
      busy.current = false;
      saved();
    }
  }, [fetcher.state, saved]);

  const failed = result?.lastResult.status === "error" ? result.lastResult : undefined;
  const submitted = failed?.initialValue?.[copy.field];
  const errors = failed?.error?.[copy.field] ?? undefined;
  const id = `${copy.field}-field`;
  const errorId = `${id}-error`;

  return (
    <SettingsCard id={copy.intent} icon={copy.icon} title={copy.title} description={copy.description}>
      <CurrentMedia kind={kind} url={current} />
      <UploadDropzone
        kind={kind}
        formats={copy.formats}
        phase={upload.phase}
        progress={upload.progress}
        onFile={upload.start}
        onCancel={upload.cancel}
      />

      <div
        className="flex items-center gap-3 text-[11px] font-semibold tracking-[0.2em] text-muted-foreground uppercase"
        aria-hidden="true"
      >
        <span className="h-px flex-1 bg-border" />
        or use a URL
        <span className="h-px flex-1 bg-border" />
      </div>

      <fetcher.Form method="post" className="space-y-1">
        <input type="hidden" name="intent" value={copy.intent} />
        <Field label={copy.urlLabel} field={{ id, errorId, errors }}>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Input
              // Rebuilt when the saved URL changes (after an upload, say), so it shows the new one.
              key={current}
              id={id}
              name={copy.field}
              type="text"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              defaultValue={typeof submitted === "string" ? submitted : current}
              placeholder="https://… or /media/…"
              aria-invalid={errors?.length ? true : undefined}
              aria-describedby={errorId}
              className="font-mono text-sm sm:flex-1"
            />
            <Button type="submit" variant="outline" disabled={pending || upload.phase !== "idle"} className="shrink-0">
              {pending && upload.phase === "idle" ? "Saving..." : "Save URL"}
            </Button>
          </div>
        </Field>
        <InlineNotice notice={inlineNotice} />
      </fetcher.Form>
    </SettingsCard>
  );
}

function CurrentMedia({ kind, url }: { kind: MediaKind; url: string }) {
  const address = (
    <p className="font-mono text-xs break-all text-muted-foreground" data-testid={`${kind}-current-url`}>
      {url}
    </p>
  );
  if (kind === "audio") {
    return (
      <div className="space-y-2">
        <p className="text-xs tracking-wider text-muted-foreground uppercase">Playing now</p>
        <audio key={url} src={url} controls preload="none" className="h-10 w-full" />
        {address}
      </div>
    );
  }
  return (
    <div className="flex items-start gap-4">
      {/* Metadata only: the first frame as a thumbnail, not the whole clip on every visit to the tab. */}
      <a
        href={url}
        target="_blank"
        rel="noreferrer"
        aria-label="Open the current video"
        className="shrink-0 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <video
          key={url}
          src={url}
          muted
          playsInline
          preload="metadata"
          className="aspect-video w-36 rounded-md border border-border bg-black object-cover sm:w-44"
        />
      </a>
      <div className="min-w-0 space-y-1">
        <p className="text-xs tracking-wider text-muted-foreground uppercase">Playing now</p>
        {address}
      </div>
    </div>
  );
}

import { useCallback, useEffect, useRef, useState } from "react";
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES, type MediaKind } from "#server/contracts/admin-settings";
import { notify } from "#app/components/toasts";

export type UploadPhase = "idle" | "uploading" | "saving";
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** A string field of the JSON answer, if the answer is JSON and has it (a proxy's error page is not). */
function answerField(xhr: XMLHttpRequest, name: string): string | null {
  try {
    const body: unknown = JSON.parse(xhr.responseText);
    const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[name] : null;
    return typeof value === "string" && value ? value : null;
  } catch {
    return null;
  }
}

/**
 * docs/spec.md §4 "Media upload": checks the file (type and 50MB), sends it with XMLHttpRequest (fetch
 * cannot report upload progress) to POST /api/admin/upload-{video,audio}, then hands the returned
 * URL to `save`. The phase stays "saving" until the caller calls `saved()`, so the controls stay
 * locked until the setting is stored or has failed.
 */
export function useMediaUpload(kind: MediaKind, save: (url: string) => void) {
  const messages = MEDIA_MESSAGES[kind];
  const [phase, setPhase] = useState<UploadPhase>("idle");
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const request = useRef<XMLHttpRequest | null>(null);

  // Leaving the page abandons the upload rather than letting it finish unseen.
  useEffect(() => () => request.current?.abort(), []);

  const start = useCallback(
    (file: File) => {
      if (!file.type.startsWith(`${kind}/`)) return void notify.error(messages.wrongTypeTitle, messages.wrongType);
      if (file.size > MEDIA_MAX_BYTES) return void notify.error(messages.tooLargeTitle, messages.tooLarge);

      const xhr = new XMLHttpRequest();
      request.current = xhr;
      const done = () => {
        request.current = null;
        setProgress(null);
      };
      xhr.open("POST", `/api/admin/upload-${kind}`);
      xhr.setRequestHeader("Accept", "application/json");
      xhr.upload.onprogress = (event) => setProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
      xhr.onload = () => {
        done();
        const url = xhr.status >= 200 && xhr.status < 300 ? answerField(xhr, `${kind}Url`) : null;
        if (!url) {
          setPhase("idle");
          return void notify.error(messages.uploadFailedTitle, answerField(xhr, "message") ?? messages.uploadFailed);
        }
        notify.success(messages.uploaded, "Saving it as the background now.");
        setPhase("saving");
        save(url);
      };
      xhr.onerror = () => {
        done();
        setPhase("idle");
        notify.error(messages.uploadFailedTitle, messages.uploadError);
      };
      xhr.onabort = () => {
        done();
        setPhase("idle");
      };
      const body = new FormData();
      body.append(kind, file);
      setPhase("uploading");
      setProgress({ loaded: 0, total: file.size });
      xhr.send(body);
    },
    [kind, messages, save],
  );

  const cancel = useCallback(() => request.current?.abort(), []);
  const saved = useCallback(() => setPhase((current) => (current === "saving" ? "idle" : current)), []);
  return { phase, progress, start, cancel, saved };
}

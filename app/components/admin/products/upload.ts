import { ACCEPTED_IMAGE_TYPES, IMAGE_MESSAGES, MAX_IMAGE_BYTES } from "#server/contracts/admin-products";

/**
 * A multipart upload with progress. fetch cannot report upload progress, XMLHttpRequest can.
 * A failure rejects with the docs/spec.md §7 message: "{status}: {server message or status text}".
 */
export function uploadWithProgress<T>(
  url: string,
  file: File,
  fields: Record<string, string>,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const body = new FormData();
    body.append("image", file);
    for (const [key, value] of Object.entries(fields)) body.append(key, value);
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.withCredentials = true;
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve(JSON.parse(xhr.responseText) as T);
        return;
      }
      reject(new Error(`${xhr.status}: ${messageOf(xhr.responseText) ?? xhr.statusText}`));
    };
    xhr.onerror = () => reject(new Error("Network error: the upload did not reach the server."));
    xhr.send(body);
  });
}

function messageOf(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    return typeof parsed.message === "string" ? parsed.message : null;
  } catch {
    return text || null;
  }
}

/** The browser's own first check (the server checks the content again): type and size. */
export function clientImageProblem(file: File): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return IMAGE_MESSAGES.badType;
  if (file.size > MAX_IMAGE_BYTES) return IMAGE_MESSAGES.tooLarge;
  return null;
}

export const ACCEPT_ATTRIBUTE = ".jpg,.jpeg,.png,.gif,image/jpeg,image/png,image/gif";

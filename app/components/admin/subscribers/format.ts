// Admin times are shown in the store's zone, so the server render and the browser agree.
export { formatStoreTime as formatEastern } from "#server/contracts/store-time";

export const count = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/**
 * A JSON call to one of the REST doors, for the two actions that go through them (send and
 * resume). Throws an Error carrying the server's readable message.
 */
export async function postJson<T>(url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new Error("The store could not be reached. Check your connection and try again.");
  }
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = (payload as { message?: unknown } | null)?.message;
    throw new Error(typeof message === "string" && message ? message : `The request failed (${response.status}).`);
  }
  return payload as T;
}

/** Starts a browser download of a same-origin URL. */
export function download(url: string, filename: string) {
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
}

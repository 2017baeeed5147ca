/**
 * Percent-decoding that answers null instead of throwing on a broken escape (`%`, `%E2%82`): the
 * one decoder for cookies, paths and route parameters, so no URIError reaches a request listener.
 */
export function percentDecoded(text: string): string | null {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

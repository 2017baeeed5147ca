/**
 * A value a client sent, made safe for a log line (issue 21): as it is when it is plain (printable
 * ASCII, no space, quote or backslash), else quoted (logQuoted), so a newline or a carriage return
 * in a header, a URL or a report never starts a line the store did not write, and a space never
 * passes one field off as two.
 */
export function logField(value: unknown): string {
  const text = typeof value === "string" ? value : String(value);
  return /^[!#-[\]-~]+$/.test(text) ? text : logQuoted(text);
}

/** JSON-escaped in quotes, line and paragraph separators too (some log viewers break lines on them). */
export function logQuoted(text: string): string {
  return JSON.stringify(text).replace(/[\u0085\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

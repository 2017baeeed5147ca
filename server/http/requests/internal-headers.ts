import type { IncomingMessage } from "node:http";

/**
 * Request header names that once carried a signal from inside the store, or would look like one.
 * No code trusts a header for anything (internal signals are in-process values: page-template.ts),
 * yet any of these arriving from outside is removed at the first line of the server, in production
 * (server.js) and under `npm run dev` (vite.config.ts), so no later reader can ever be fooled. The
 * one list: a new internal name goes here.
 */
export const INTERNAL_HEADERS: readonly string[] = ["x-page-template"];

/** Removes every internal header name from a request that came from outside. */
export function stripInternalHeaders(req: IncomingMessage): void {
  for (const name of INTERNAL_HEADERS) if (req.headers[name] !== undefined) delete req.headers[name];
}

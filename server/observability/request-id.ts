import crypto from "node:crypto";
import type { IncomingMessage } from "node:http";

/** A proxy's request id is kept when it is this plain: letters, digits and . _ : - , at most 64. */
const PLAIN_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The id of one request, for its log lines and its X-Request-Id answer header (issue 27). Behind a
 * trusted proxy (TRUST_PROXY) the proxy's X-Request-Id is kept, so one id follows the request
 * through nginx and the store; a client's own (no proxy trusted), a repeated header, or one that
 * is too long or carries anything but plain characters is replaced by a fresh id.
 */
export function requestIdOf(req: IncomingMessage, trustProxy: number): string {
  if (trustProxy > 0) {
    const forwarded = req.headers["x-request-id"];
    if (typeof forwarded === "string" && PLAIN_ID.test(forwarded)) return forwarded;
  }
  return crypto.randomUUID();
}

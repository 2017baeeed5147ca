import crypto from "node:crypto";
import { METRICS_CONTENT_TYPE } from "#server/observability/cluster-metrics";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";
import { logError } from "#server/observability/log";

const digest = (text: string) => crypto.createHash("sha256").update(text).digest();

/**
 * Whether an Authorization header carries the metrics token, compared in constant time (over
 * digests, so that the length of a guess tells nothing either).
 */
export function carriesToken(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(authorization ?? "");
  return match !== null && crypto.timingSafeEqual(digest(match[1]!), digest(token));
}

/**
 * GET /metrics on the store's port (decision 0048): the Prometheus text, for a caller with the
 * token only. Anyone else (no token configured, none sent, a wrong one) gets null: the request goes
 * on to the store's own 404, so the door cannot be told from a missing page.
 */
export async function metricsAnswer(
  authorization: string | undefined,
  token: string | null,
  scrape: (() => Promise<string>) | null,
): Promise<Response | null> {
  if (token === null || scrape === null || !carriesToken(authorization, token)) return null;
  try {
    return new Response(await scrape(), { headers: { ...NO_STORE_HEADERS, "Content-Type": METRICS_CONTENT_TYPE } });
  } catch (error) {
    logError("Collecting the metrics failed", error);
    return new Response("The metrics could not be collected.\n", {
      status: 503,
      headers: { ...NO_STORE_HEADERS, "Content-Type": "text/plain; charset=utf-8" },
    });
  }
}

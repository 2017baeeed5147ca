import { getAppContext } from "#server/boot";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";
import { readiness } from "#server/services/store/readiness";

/**
 * GET /readyz: 200 when this process should get traffic (the database answers, its migrations are
 * current, it is not stopping), 503 with the reason otherwise. /healthz stays the liveness check.
 */
export async function readinessCheck(): Promise<Response> {
  const verdict = await getAppContext().then(readiness, () => ({ ready: false as const, reason: "The store has not started." }));
  if (verdict.ready) return Response.json({ status: "ready", pid: process.pid }, { headers: NO_STORE_HEADERS });
  return Response.json({ status: "unavailable", reason: verdict.reason, pid: process.pid }, { status: 503, headers: NO_STORE_HEADERS });
}

import { getAppContext } from "#server/boot";
import { paymentModeName } from "#server/config";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";
import { readiness } from "#server/services/store/readiness";

/**
 * GET /readyz: 200 when this process should get traffic (the database answers, its migrations are
 * current, it is not stopping), 503 with the reason otherwise. /healthz stays the liveness check.
 */
export async function readinessCheck(): Promise<Response> {
  const ctx = await getAppContext().catch(() => null);
  const verdict = ctx ? await readiness(ctx) : { ready: false as const, reason: "The store has not started." };
  // The payment mode by name (issue 27): a deployer sees at once whether cards are charged.
  const payments = ctx ? paymentModeName(ctx.config) : undefined;
  if (verdict.ready) return Response.json({ status: "ready", payments, pid: process.pid }, { headers: NO_STORE_HEADERS });
  return Response.json(
    { status: "unavailable", reason: verdict.reason, payments, pid: process.pid },
    { status: 503, headers: NO_STORE_HEADERS },
  );
}

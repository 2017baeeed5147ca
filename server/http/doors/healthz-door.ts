import { sql } from "kysely";
import { getAppContext } from "#server/boot";
import { NO_STORE_HEADERS } from "#server/http/cache/cache-control";

/**
 * GET /healthz: 200 when the database answers, 503 otherwise. For the host's health check. `pid`
 * names the process that answered: under `npm start`'s workers, which one.
 */
export async function healthCheck(): Promise<Response> {
  try {
    const ctx = await getAppContext();
    await sql`SELECT 1`.execute(ctx.db);
    return Response.json({ status: "ok", database: "ok", pid: process.pid }, { headers: NO_STORE_HEADERS });
  } catch {
    return Response.json({ status: "error", database: "unavailable", pid: process.pid }, { status: 503, headers: NO_STORE_HEADERS });
  }
}

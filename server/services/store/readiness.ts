import { pendingMigrations } from "#db/client";
import type { AppContext } from "#server/context";
import { shuttingDown } from "#server/observability/lifecycle";

export const READINESS_MESSAGES = {
  stopping: "The store is shutting down.",
  database: "The database does not answer.",
  migrations: (names: string[]) => `The database has migrations not applied yet: ${names.join(", ")}.`,
} as const;

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Whether this process should be sent shoppers (GET /readyz, decision 0048): not while it stops,
 * and only when the database answers with the schema this code expects. A stranger learns nothing
 * from it but the reason (no address, no error text of the driver).
 */
export async function readiness(ctx: AppContext): Promise<Readiness> {
  if (shuttingDown()) return { ready: false, reason: READINESS_MESSAGES.stopping };
  let pending: string[];
  try {
    pending = await pendingMigrations(ctx.db);
  } catch {
    return { ready: false, reason: READINESS_MESSAGES.database };
  }
  if (shuttingDown()) return { ready: false, reason: READINESS_MESSAGES.stopping };
  return pending.length === 0 ? { ready: true } : { ready: false, reason: READINESS_MESSAGES.migrations(pending) };
}

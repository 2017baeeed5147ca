import type { AppContext } from "#server/context";
import { compiledOnce } from "#db/compiled-query";

// Taken and given back around every order's fulfilment: kept compiled.
const upsertLease = compiledOnce((db, $: { name: string; holder: string; expiresAt: string; now: string }) =>
  db
    .insertInto("leases")
    .values({ name: $.name, holder: $.holder, expiresAt: $.expiresAt })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet((eb) => ({ holder: eb.ref("excluded.holder"), expiresAt: eb.ref("excluded.expiresAt") }))
        .where((eb) => eb.or([eb("leases.holder", "=", $.holder), eb("leases.expiresAt", "<=", $.now)])),
    ),
);
const deleteLease = compiledOnce((db, $: { name: string; holder: string }) =>
  db.deleteFrom("leases").where("name", "=", $.name).where("holder", "=", $.holder),
);

/**
 * Takes or renews the lease `name` for `holder` until now + `ttlMs`, in one conditional upsert:
 * it succeeds when nobody holds the lease, when `holder` already does, or when the last holder let
 * it expire (it died, or stopped renewing). So exactly one of the workers, or of several machines
 * on one database, wins, and another takes over within `ttlMs` of the winner's death.
 */
export async function holdLease(ctx: AppContext, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + ttlMs).toISOString();
  const result = await upsertLease.run(ctx.db, { name, holder, expiresAt, now: now.toISOString() });
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Gives the lease up at once (a graceful stop), so that another holder need not wait for it to expire. */
export async function releaseLease(ctx: AppContext, name: string, holder: string): Promise<void> {
  await deleteLease.run(ctx.db, { name, holder });
}

/** For the sweeper: leases nobody renewed (a holder that died) are dead rows. */
export async function deleteExpiredLeases(ctx: AppContext): Promise<void> {
  await ctx.db.deleteFrom("leases").where("expiresAt", "<=", ctx.clock.now().toISOString()).execute();
}

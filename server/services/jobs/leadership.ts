import { targetOf } from "#db/client";
import { isPostgres } from "#db/engine";
import { ADVISORY_LOCK, AdvisoryLeader, closeWithDatabase } from "#db/postgres";
import type { AppContext } from "#server/context";
import { holdLease, releaseLease } from "./leases";

/** Chores only one process at a time may do, among the workers and machines on one database. */
export type LeadershipName = "sweeper";

// One connection per (database, chore, holder) in this process. Tests run several holders in one
// process, as if they were several processes.
const leaders = new Map<string, AdvisoryLeader>();

function advisoryLeader(ctx: AppContext, url: string, name: LeadershipName, holder: string): AdvisoryLeader {
  const id = `${url}\n${name}\n${holder}`;
  let leader = leaders.get(id);
  if (!leader) {
    const made = new AdvisoryLeader(url, ADVISORY_LOCK[name], `store ${name} (pid ${process.pid})`);
    leaders.set(id, made);
    // Its connection ends with the database it leads for (ctx.db.destroy()), not after it.
    closeWithDatabase(ctx.db, async () => {
      if (leaders.get(id) === made) leaders.delete(id);
      await made.resign();
    });
    leader = made;
  }
  return leader;
}

/**
 * Takes or keeps the leadership of `name` for `holder`. On SQLite (one machine) a lease row that
 * the leader renews within `ttlMs`, taken over when it stops (leases.ts); on PostgreSQL a session
 * advisory lock on a connection of this process's own, kept for as long as that connection lives
 * and taken over by another process's next try once it dies (decision 0022). Either way one holder
 * at a time, and another takes over when the leader is gone.
 */
export async function holdLeadership(ctx: AppContext, name: LeadershipName, holder: string, ttlMs: number): Promise<boolean> {
  const target = isPostgres(ctx.db) ? targetOf(ctx.db) : null;
  if (target?.engine !== "postgres") return holdLease(ctx, name, holder, ttlMs);
  return advisoryLeader(ctx, target.url, name, holder).lead();
}

/** Gives the leadership up at once (a graceful stop), so another holder need not wait. */
export async function resignLeadership(ctx: AppContext, name: LeadershipName, holder: string): Promise<void> {
  const target = isPostgres(ctx.db) ? targetOf(ctx.db) : null;
  if (target?.engine !== "postgres") return releaseLease(ctx, name, holder);
  const id = `${target.url}\n${name}\n${holder}`;
  const leader = leaders.get(id);
  leaders.delete(id);
  await leader?.resign();
}

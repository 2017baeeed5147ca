import { targetOf } from "../../db/client";
import { closeWithDatabase, listenFor } from "../../db/postgres";
import type { AppContext } from "../context";

/**
 * The counter that moves whenever a product, its images or a setting changes (triggers in
 * migration 0010, inside the writing transaction). The page cache compares it with the one its
 * pages were rendered at.
 */
export async function readPageVersion(ctx: AppContext): Promise<number> {
  const row = await ctx.db.selectFrom("pageVersion").select("version").where("id", "=", 1).executeTakeFirst();
  return row?.version ?? 0;
}

/**
 * Calls `onMove` as soon as the page version moves, from whichever process or machine wrote: on
 * PostgreSQL the 0010 triggers `pg_notify('page_version')` at commit and a connection of this
 * process's own LISTENs (decision 0022); it also calls `onMove` each time it (re)connects, since
 * notifications sent while it was away are lost. On SQLite there is nothing to listen to (one
 * machine; the caches read the counter every 250 ms). Either way the caches keep reading the
 * counter: a notification only makes them read it now. Returns the stop.
 */
export function watchPageVersion(ctx: AppContext, onMove: () => void): () => Promise<void> {
  const target = targetOf(ctx.db);
  if (target.engine === "sqlite") return async () => {};
  const stop = listenFor(target.url, "page_version", onMove);
  // The listening connection ends with the database (ctx.db.destroy()), if not stopped before.
  const untie = closeWithDatabase(ctx.db, stop);
  return async () => {
    untie();
    await stop();
  };
}

import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Whether a database (or a transaction on one) is PostgreSQL, from Kysely's adapter: works for a
 * Transaction as for the Kysely it came from. For the few places that must differ by engine
 * (migrations, row locks SQLite has no syntax for); services otherwise write one SQL for both.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: migrations see Kysely<unknown>
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * `SELECT … FOR UPDATE` on PostgreSQL, for a read-then-write inside a transaction: the row stays
 * locked to the commit, so a concurrent transaction doing the same waits and then reads what this
 * one wrote. SQLite has no such clause and needs none: its transactions begin IMMEDIATE, one
 * writer at a time (decision 0015), so the same SELECT is returned unchanged there.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema, as isPostgres
export function forUpdateOnPostgres<Q extends { forUpdate(): Q }>(db: Kysely<any>, query: Q): Q {
  return isPostgres(db) ? query.forUpdate() : query;
}

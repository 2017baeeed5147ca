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

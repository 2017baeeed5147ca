import { CamelCasePlugin, Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { DB } from "./schema";

/** pg's type ids whose text form we parse differently from pg's default. */
const INT8 = 20;

/**
 * pg returns bigint (count(*), sum(integer)) as a string so as to lose no digits. Every count and
 * sum in this store is far below 2^53, and SQLite returns them as numbers: parse them as numbers
 * here, for this pool only (pg.types is global to the process), so services read the same types
 * from both engines.
 */
const types = {
  getTypeParser(id: number, format?: "text" | "binary") {
    if (id === INT8 && format !== "binary") return (value: string) => Number(value);
    return pg.types.getTypeParser(id, format);
  },
} as pg.CustomTypesConfig;

/**
 * Kysely on a pool of `poolSize` connections to PostgreSQL, with the same plugins as the SQLite
 * database (snake_case columns, camelCase in code). The pool is per process: with
 * WEB_CONCURRENCY workers the server sees workers × poolSize connections.
 */
export function openPostgres(url: string, poolSize: number): Kysely<DB> {
  const pool = poolClosedOnEnd({ connectionString: url, max: poolSize, types });
  // An idle connection the server closes (a restart, a failover, an administrator) is an 'error'
  // event on the pool; unheard, it would end the process. The pool drops that connection and opens
  // another on the next query, so a warning is all it needs.
  pool.on("error", (error) => console.warn(`PostgreSQL closed an idle connection (the pool will open another): ${error.message}`));
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
}

/**
 * A pg Pool whose `end()` (Kysely's `destroy()`) resolves only once every connection it opened has
 * closed. pg-pool's own `end()` resolves as soon as it has *asked* its idle connections to close,
 * while their server processes are still alive: whoever drops the database or stops the server
 * next (a test's teardown, a restore) finds them there, and they die with 57P01 "terminating
 * connection due to administrator command" on a pool that was thought closed. The server process
 * leaves the server's list of backends before it closes the socket, so after the socket's end the
 * database is really free.
 */
export function poolClosedOnEnd(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  const open = new Set<pg.PoolClient>();
  pool.on("connect", (client) => {
    open.add(client);
    client.once("end", () => open.delete(client));
  });
  const end = pool.end.bind(pool) as () => Promise<void>;
  const endFully = async () => {
    // Asked for now: a connection that ends meanwhile leaves `open` and has already emitted "end".
    const closed = [...open].map((client) => new Promise<void>((resolve) => client.once("end", () => resolve())));
    await end();
    await Promise.all(closed);
  };
  pool.end = endFully as typeof pool.end;
  return pool;
}

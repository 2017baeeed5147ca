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
 * How long opening a connection may take before the query that needed it fails. Without a bound, a
 * server that accepts and never answers (a hung host, a black-holed route, a full backlog) held
 * every query, /readyz included, for as long as the kernel kept the socket: the store hung instead
 * of answering 503. Only the opening is bounded: a query waiting for a free connection of the pool
 * (a rush queues there) waits as before, which pg's own pool-wide `connectionTimeoutMillis` would not allow.
 */
export const CONNECT_TIMEOUT_MS = 10_000;

/** pg's Client, opening its connection within `ms` (pg-pool makes its connections with the Client it is given). */
function clientWithConnectTimeout(ms: number): typeof pg.Client {
  return class extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: ms });
    }
  };
}

/**
 * Kysely on a pool of `poolSize` connections to PostgreSQL, with the same plugins as the SQLite
 * database (snake_case columns, camelCase in code). The pool is per process: with
 * WEB_CONCURRENCY workers the server sees workers × poolSize connections.
 */
export function openPostgres(url: string, poolSize: number, { connectTimeoutMs = CONNECT_TIMEOUT_MS } = {}): Kysely<DB> {
  const companions = new Set<() => Promise<void>>();
  const Client = clientWithConnectTimeout(connectTimeoutMs);
  const pool = poolClosedOnEnd({ connectionString: url, max: poolSize, types, Client }, companions);
  // An idle connection the server closes (a restart, a failover, an administrator) is an 'error'
  // event on the pool; unheard, it would end the process. The pool drops that connection and opens
  // another on the next query, so a warning is all it needs.
  pool.on("error", (error) => console.warn(`PostgreSQL closed an idle connection (the pool will open another): ${error.message}`));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  companionsOf.set(db, companions);
  poolOf.set(db, pool);
  return db;
}

const poolOf = new WeakMap<Kysely<DB>, pg.Pool>();

/** The pool's connections now: lent out to a query or transaction, idle, and callers waiting for one. */
export function postgresPoolStats(db: Kysely<DB>): { inUse: number; idle: number; waiting: number; size: number } | null {
  const pool = poolOf.get(db);
  if (!pool) return null;
  return { inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount, size: pool.options.max ?? 10 };
}

const companionsOf = new WeakMap<Kysely<DB>, Set<() => Promise<void>>>();

/**
 * Ties a connection of its own that serves this database (a leader's advisory lock, a LISTEN) to
 * the database's life: `close` runs when `db.destroy()` is called, before the pool ends, so that
 * destroy() leaves nothing connected (a test's teardown then drops a database nobody uses). Returns
 * the untie, for a connection closed earlier by its owner.
 */
export function closeWithDatabase(db: Kysely<DB>, close: () => Promise<void>): () => void {
  const companions = companionsOf.get(db);
  companions?.add(close);
  return () => void companions?.delete(close);
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
export function poolClosedOnEnd(config: pg.PoolConfig, companions: ReadonlySet<() => Promise<void>> = new Set()): pg.Pool {
  const pool = new pg.Pool(config);
  const open = new Set<pg.PoolClient>();
  pool.on("connect", (client) => {
    // pg-pool listens for errors only on its idle connections. One lent out (a transaction
    // between two statements, a query about to be sent) that the server ends (57P01 from a
    // restart, a failover, pg_terminate_backend) emits 'error' with nobody listening, and an
    // unheard 'error' ends the process. Heard here, the failure reaches the request as its
    // query's rejection (db/connection-lost.ts: a 503), and the pool drops the broken connection
    // when it comes back (pg marks it not queryable).
    client.on("error", () => {});
    open.add(client);
    client.once("end", () => open.delete(client));
  });
  const end = pool.end.bind(pool) as () => Promise<void>;
  const endFully = async () => {
    await Promise.all([...companions].map((close) => close().catch(() => {})));
    // Asked for now: a connection that ends meanwhile leaves `open` and has already emitted "end".
    const closed = [...open].map((client) => new Promise<void>((resolve) => client.once("end", () => resolve())));
    await end();
    await Promise.all(closed);
  };
  pool.end = endFully as typeof pool.end;
  return pool;
}

/**
 * Keys of the session-level advisory locks the store takes (pg_advisory_lock's one bigint form).
 * Fixed numbers, so every process and machine on one database agrees on them; Kysely's migrator
 * locks hashtext('kysely_migration_lock'), an int4, which these stay clear of.
 */
export const ADVISORY_LOCK = {
  /** Held around migrations, the seed and the first admin at start-up: one process prepares. */
  prepare: 7_305_830_001,
  /** Held by the sweeper's leader for as long as its connection lives (server/services/jobs/leases.ts). */
  sweeper: 7_305_830_002,
} as const;

/** A connection of its own (not the pool's), with the pool's types, for session locks and LISTEN. */
export function dedicatedClient(url: string, applicationName?: string, connectTimeoutMs = CONNECT_TIMEOUT_MS): pg.Client {
  return new pg.Client({
    connectionString: url,
    types,
    connectionTimeoutMillis: connectTimeoutMs,
    ...(applicationName ? { application_name: applicationName } : {}),
  });
}

/**
 * Runs `fn` while holding the advisory lock `key` on a connection of its own, waiting for any
 * other holder (another process starting at the same moment) to finish first. A session lock
 * belongs to its connection, so `fn`'s own queries go through the pool as usual; if this process
 * dies, PostgreSQL ends the session and the lock is free again.
 */
export async function whileHoldingAdvisoryLock<T>(url: string, key: number, fn: () => Promise<T>): Promise<T> {
  const client = dedicatedClient(url);
  // An error on this idle connection must not end the process; the query below reports it.
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [key]);
    try {
      return await fn();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [key]).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Leadership of one chore by a session-level advisory lock (`pg_try_advisory_lock`) on a
 * connection of its own: the lock belongs to that connection, so it cannot come from the pool,
 * where the next query may run on another one. Leadership lasts as long as the connection: when
 * it dies (the process was killed, the network or the server dropped it, an administrator ended
 * it) PostgreSQL frees the lock and another process's next try takes it. No clock, no renewal.
 */
export class AdvisoryLeader {
  private client: pg.Client | null = null;
  private leading = false;

  /** `applicationName` shows in pg_stat_activity, so an operator can see which process leads. */
  constructor(
    private readonly url: string,
    private readonly key: number,
    private readonly applicationName?: string,
  ) {}

  /** Whether this process leads now: keeps the lock it holds, or tries to take it when free. */
  async lead(): Promise<boolean> {
    let client = this.client;
    try {
      if (!client) {
        client = dedicatedClient(this.url, this.applicationName);
        const mine = client;
        // A connection that errs or ends takes the leadership with it; the next call reconnects.
        mine.on("error", () => this.lose(mine));
        mine.on("end", () => this.lose(mine));
        this.client = mine;
        await mine.connect();
        // A leader whose machine lost power sends no FIN: the server would keep its session, and
        // the lock, until TCP keepalive gives up (two hours by Linux's default). Probe after 30 s
        // idle, every 10 s, 3 times: the lock is free about a minute after the leader vanished.
        await mine.query("SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3");
      }
      if (this.leading) {
        // Still ours only while the connection is: a dead one fails this query.
        await client.query("SELECT 1");
        return true;
      }
      const { rows } = await client.query<{ taken: boolean }>("SELECT pg_try_advisory_lock($1) AS taken", [this.key]);
      this.leading = rows[0]?.taken === true;
      return this.leading;
    } catch {
      if (client) this.lose(client);
      return false;
    }
  }

  /** Gives the leadership up at once (a graceful stop) and closes the connection. */
  async resign(): Promise<void> {
    const client = this.client;
    const leading = this.leading;
    this.client = null;
    this.leading = false;
    if (!client) return;
    if (leading) await client.query("SELECT pg_advisory_unlock($1)", [this.key]).catch(() => {});
    await client.end().catch(() => {});
  }

  private lose(client: pg.Client) {
    if (this.client !== client) return;
    this.client = null;
    this.leading = false;
    client.end().catch(() => {});
  }
}

/** How long to wait before listening again after the connection was lost: 0.5 s, doubling to 30 s. */
const LISTEN_RETRY_MS = { first: 500, max: 30_000 };

/**
 * LISTEN on `channel` on a connection of its own (a pooled one would go back to the pool and
 * stop listening), calling `onNotify` for each notification. When the connection is lost it
 * connects and listens again, and calls `onNotify` once it listens (what was notified meanwhile
 * was missed). Returns the stop.
 */
export function listenFor(url: string, channel: string, onNotify: () => void): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | null = null;
  let retryMs = LISTEN_RETRY_MS.first;
  let timer: NodeJS.Timeout | null = null;

  const again = (lost: pg.Client) => {
    if (client !== lost) return;
    client = null;
    lost.end().catch(() => {});
    if (stopped) return;
    timer = setTimeout(connect, retryMs);
    timer.unref();
    retryMs = Math.min(LISTEN_RETRY_MS.max, retryMs * 2);
  };

  async function connect() {
    timer = null;
    if (stopped) return;
    const mine = dedicatedClient(url);
    client = mine;
    mine.on("error", () => again(mine));
    mine.on("end", () => again(mine));
    mine.on("notification", (message) => {
      if (message.channel === channel) onNotify();
    });
    try {
      await mine.connect();
      // An identifier, not a value: the channel names are ours (no user input reaches here).
      await mine.query(`LISTEN ${mine.escapeIdentifier(channel)}`);
      retryMs = LISTEN_RETRY_MS.first;
      onNotify();
    } catch {
      again(mine);
    }
  }

  void connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const last = client;
    client = null;
    await last?.end().catch(() => {});
  };
}

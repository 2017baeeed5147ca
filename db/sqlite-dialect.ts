import { performance } from "node:perf_hooks";
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type SqliteDatabase,
} from "kysely";

/**
 * The store's SQLite dialect: two connections to one file, one that writes and one that only reads.
 *
 * Kysely's own SQLite driver puts every query, reads included, behind one mutex on one connection.
 * better-sqlite3 answers synchronously, so a queue of write transactions (a thousand shoppers adding
 * to the bag at T-0) runs back to back in one chain of promises, and a page's loader that only wants
 * to read the shelf waited behind all of it: at T-0 the product pages and /checkout came out together
 * at the end of each wave (decision 0030). Here a SELECT outside a transaction runs at once on the
 * reading connection, which WAL lets read the last committed state while the other writes; writes and
 * transactions keep the one writing connection, in turn, as before.
 *
 * Every transaction begins IMMEDIATE. Several processes (the workers of `npm start`) write one file;
 * a plain BEGIN is deferred: it takes a read lock first and asks for the write lock at its first write,
 * and if another process wrote meanwhile SQLite cannot upgrade and answers SQLITE_BUSY at once,
 * without waiting out busy_timeout. BEGIN IMMEDIATE takes the write lock up front, so a second writer
 * queues behind the first instead of failing. No call site can forget it.
 */
/**
 * How often a transaction found the write lock taken by another process (BEGIN IMMEDIATE waited:
 * SQLite's busy handler retried it), for how long in all, how many gave up with SQLITE_BUSY, and
 * how many transactions of this process wait for the writing connection now.
 */
export interface SqliteWriteStats {
  busyWaits: number;
  busyWaitSeconds: number;
  busyErrors: number;
  writersWaiting: number;
}

/** An uncontended BEGIN IMMEDIATE takes microseconds; SQLite's first busy retry sleeps a millisecond or more. */
const BUSY_WAIT_MS = 1;

export class StoreSqliteDialect implements Dialect {
  readonly stats: SqliteWriteStats = { busyWaits: 0, busyWaitSeconds: 0, busyErrors: 0, writersWaiting: 0 };
  readonly #writer: SqliteDatabase;
  readonly #reader: SqliteDatabase | undefined;

  /** `reader` is left out for an in-memory database, which a second connection cannot see. */
  constructor(connections: { writer: SqliteDatabase; reader?: SqliteDatabase }) {
    this.#writer = connections.writer;
    this.#reader = connections.reader;
  }

  createDriver(): Driver {
    return new ReadWriteDriver(this.#writer, this.#reader ?? this.#writer, this.#reader !== undefined, this.stats);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  createAdapter() {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  constructor(private readonly stats: SqliteWriteStats) {}

  /** Resolves with the function that lets the next one in. */
  lock(): Promise<() => void> {
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    this.stats.writersWaiting++;
    const ready = this.#tail.then(() => {
      this.stats.writersWaiting--;
      return release;
    });
    this.#tail = this.#tail.then(() => turn);
    return ready;
  }
}

function run(db: SqliteDatabase, { sql, parameters }: CompiledQuery): QueryResult<unknown> {
  const statement = db.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters as unknown[]) };
  const { changes, lastInsertRowid } = statement.run(parameters as unknown[]);
  return {
    numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
    insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
    rows: [],
  };
}

/**
 * What Kysely holds between acquiring and releasing a connection. It takes the writing connection
 * (and its turn) only when it has to: at BEGIN, at a statement that is not a SELECT, or for a stream
 * (an open iterator keeps its connection busy). A lone SELECT goes to the reading connection.
 */
class Lease implements DatabaseConnection {
  #release: (() => void) | undefined;

  constructor(
    private readonly writer: SqliteDatabase,
    private readonly reader: SqliteDatabase,
    private readonly mutex: Mutex,
    private readonly separateReader: boolean,
  ) {}

  async takeWriter(): Promise<void> {
    this.#release ??= await this.mutex.lock();
  }

  release(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (!this.#release && this.separateReader && SelectQueryNode.is(query.query)) return run(this.reader, query) as QueryResult<R>;
    await this.takeWriter();
    return run(this.writer, query) as QueryResult<R>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (!SelectQueryNode.is(query.query)) throw new Error("Sqlite driver only supports streaming of select queries");
    await this.takeWriter();
    for (const row of this.writer.prepare(query.sql).iterate(query.parameters as unknown[])) yield { rows: [row as R] };
  }
}

const BEGIN_IMMEDIATE = CompiledQuery.raw("begin immediate");
const COMMIT = CompiledQuery.raw("commit");
const ROLLBACK = CompiledQuery.raw("rollback");

class ReadWriteDriver implements Driver {
  readonly #mutex: Mutex;

  constructor(
    private readonly writer: SqliteDatabase,
    private readonly reader: SqliteDatabase,
    private readonly separateReader: boolean,
    private readonly stats: SqliteWriteStats,
  ) {
    this.#mutex = new Mutex(stats);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this.writer, this.reader, this.#mutex, this.separateReader);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as Lease).takeWriter();
    const started = performance.now();
    try {
      await connection.executeQuery(BEGIN_IMMEDIATE);
    } catch (error) {
      if ((error as { code?: unknown }).code === "SQLITE_BUSY") this.stats.busyErrors++;
      throw error;
    } finally {
      const waitedMs = performance.now() - started;
      if (waitedMs >= BUSY_WAIT_MS) {
        this.stats.busyWaits++;
        this.stats.busyWaitSeconds += waitedMs / 1000;
      }
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(COMMIT);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(ROLLBACK);
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`savepoint "${name}"`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`rollback to "${name}"`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(`release "${name}"`));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).release();
  }

  async destroy(): Promise<void> {
    if (this.separateReader) this.reader.close();
    this.writer.close();
  }
}

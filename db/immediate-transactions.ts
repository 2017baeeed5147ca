import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type SqliteDialectConfig } from "kysely";

/**
 * Several processes (the workers of `npm start`) write one SQLite file. A plain BEGIN is deferred:
 * the transaction takes a read lock first and asks for the write lock at its first write. If another
 * process wrote meanwhile, SQLite cannot upgrade and answers SQLITE_BUSY at once, without waiting out
 * busy_timeout. BEGIN IMMEDIATE takes the write lock up front, so a second writer queues behind the
 * first (busy_timeout) instead of failing. Every Kysely transaction goes through here, so no call
 * site can forget it; the store has no read-only transactions that would queue needlessly.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

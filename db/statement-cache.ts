import type { Database, Statement } from "better-sqlite3";
import type { SqliteDatabase } from "kysely";

/** Distinct SQL texts kept; the store has a few hundred, `IN (…)` lists of other lengths come and go. */
const MAX_STATEMENTS = 1000;

/**
 * Kysely's SQLite driver prepares every query again (about a third of a small query's cost under
 * load). The SQL text of a Kysely query is the same each time, only its parameters change, so each
 * text is prepared once per connection and reused; SQLite itself re-prepares a statement after a
 * schema change. Each connection runs one statement at a time (better-sqlite3 is synchronous; a
 * `.stream()` holds the writing connection until done, db/sqlite-dialect.ts), so a statement is
 * never in use twice at once.
 */
export function withStatementCache(sqlite: Database): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

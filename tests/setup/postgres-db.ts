import crypto from "node:crypto";
import { Kysely, PostgresDialect } from "kysely";
import type { DatabaseTarget } from "#db/client";
import { poolClosedOnEnd } from "#db/postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, inject } from "vitest";

const provided = inject("postgres");

/** Why this run has no PostgreSQL, or null when it has one (started by postgres-global.ts). */
export const postgresSkipped: string | null = provided.skipped;

/** `describe` that runs only when the run has a PostgreSQL server; the reason is in the run's log. */
export const describeOnPostgres = describe.skipIf(postgresSkipped !== null);

function withDatabase(url: string, database: string) {
  const target = new URL(url);
  target.pathname = `/${database}`;
  return target.toString();
}

/** The migrated database every file copies under STORE_TEST_DB=postgres (made by postgres-global.ts). */
export const POSTGRES_TEMPLATE = "store_template";

async function asAdmin(statement: string) {
  const client = new pg.Client({ connectionString: provided.url! });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Drops a file's database after its tests. Every pool on it should be closed by then (destroy()
 * waits for its connections: db/postgres.ts poolClosedOnEnd); one still connected is a leak in
 * the file's teardown, and fails it by name, rather than dying later with 57P01 ("terminating
 * connection due to administrator command") in whatever file runs next in that worker.
 */
async function dropDatabase(name: string) {
  const client = new pg.Client({ connectionString: provided.url! });
  await client.connect();
  try {
    const connected = async () =>
      (
        await client.query<{ n: number; names: string | null }>(
          `SELECT count(*)::int AS n, string_agg(DISTINCT nullif(application_name, ''), ', ') AS names
           FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`,
          [name],
        )
      ).rows[0]!;
    // A client process killed at the end of a test (a SIGKILLed fixture) leaves its server process
    // a moment to notice: allow it two seconds, not a pool left open.
    let open = await connected();
    for (let waited = 0; open.n > 0 && waited < 2_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      open = await connected();
    }
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    if (open.n > 0) {
      throw new Error(
        `${open.n} connection(s) to the test database ${name} were still open 2 s after the file's tests${open.names ? ` (${open.names})` : ""}: ` +
          "a pool was not destroyed (await db.destroy() in an afterAll registered after the one that made the database).",
      );
    }
  } finally {
    await client.end();
  }
}

/**
 * For createTestContext under STORE_TEST_DB=postgres: a copy of the migrated template for this
 * file, made before its tests and dropped after. The pool connects lazily, so the target can be
 * opened at once, as the SQLite copy is.
 */
export function postgresCopyOfTemplate(): DatabaseTarget {
  if (postgresSkipped) throw new Error(`STORE_TEST_DB=postgres, but the run has no PostgreSQL: ${postgresSkipped}.`);
  const name = `test_${process.pid}_${crypto.randomUUID().slice(0, 8)}`;
  beforeAll(() => asAdmin(`CREATE DATABASE ${name} TEMPLATE ${POSTGRES_TEMPLATE}`));
  afterAll(() => dropDatabase(name));
  return { engine: "postgres", url: withDatabase(provided.url!, name), poolSize: 4 };
}

/**
 * A fresh, empty database on the run's server for this test file, dropped after it. Call at the
 * top of a `describeOnPostgres` block; read `.url` inside tests or hooks.
 */
export function postgresDatabaseForFile(): { readonly url: string } {
  const name = `test_${process.pid}_${crypto.randomUUID().slice(0, 8)}`;
  let url = "";
  const admin = () => new pg.Client({ connectionString: provided.url! });
  beforeAll(async () => {
    const client = admin();
    await client.connect();
    try {
      await client.query(`CREATE DATABASE ${name}`);
    } finally {
      await client.end();
    }
    url = withDatabase(provided.url!, name);
  });
  afterAll(async () => {
    if (url) await dropDatabase(name);
  });
  return {
    get url() {
      if (!url) throw new Error("postgresDatabaseForFile(): the database is made in beforeAll; read .url inside a test or hook.");
      return url;
    },
  };
}

/** Kysely on a pg Pool for a test (no plugins: the raw engine, not the store's configuration). */
export function kyselyOn<DB>(url: string, max = 4): Kysely<DB> {
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool: poolClosedOnEnd({ connectionString: url, max }) }) });
}

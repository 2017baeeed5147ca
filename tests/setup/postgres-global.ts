import type { TestProject } from "vitest/node";
import pg from "pg";
import { migrateToLatest, openDatabase } from "#db/client";
import { postgresUnavailable, startPostgres } from "./postgres";

/** What a test file learns about the run's PostgreSQL server (see postgres-db.ts). */
export type ProvidedPostgres = { url: string; skipped: null } | { url: null; skipped: string };

declare module "vitest" {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

/**
 * One throwaway PostgreSQL server for the whole run (about a second to initdb and start); each
 * test file makes its own database on it. Absent binaries skip the PostgreSQL tests with the
 * reason; binaries that are present but fail to start fail the run, since that is a real fault.
 * STORE_TEST_POSTGRES=0 skips on purpose. Under STORE_TEST_DB=postgres (the integration suite on
 * PostgreSQL: tests/setup/context.ts) it also migrates the template database each file copies,
 * and a missing PostgreSQL is an error rather than a skip.
 */
export default async function setup(project: TestProject) {
  const reason = process.env.STORE_TEST_POSTGRES === "0" ? "STORE_TEST_POSTGRES=0" : postgresUnavailable();
  const suiteOnPostgres = process.env.STORE_TEST_DB === "postgres";
  if (reason && suiteOnPostgres) {
    throw new Error(
      `STORE_TEST_DB=postgres, but PostgreSQL cannot run here: ${reason}. (npm test skips its PostgreSQL run when STORE_TEST_POSTGRES=0.)`,
    );
  }
  if (reason) {
    console.warn(`PostgreSQL tests skipped: ${reason}.`);
    project.provide("postgres", { url: null, skipped: reason });
    return;
  }
  const server = await startPostgres();
  try {
    if (suiteOnPostgres) await migrateTemplate(server.url, server.urlFor("store_template"));
  } catch (error) {
    server.stop();
    throw error;
  }
  project.provide("postgres", { url: server.url, skipped: null });
  return () => server.stop();
}

/** The migrated template (POSTGRES_TEMPLATE in postgres-db.ts); closed again, as a template must be. */
async function migrateTemplate(adminUrl: string, templateUrl: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("CREATE DATABASE store_template");
  } finally {
    await admin.end();
  }
  const db = openDatabase({ engine: "postgres", url: templateUrl, poolSize: 1 });
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
}

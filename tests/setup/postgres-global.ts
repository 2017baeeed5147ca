import type { TestProject } from "vitest/node";
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
 * STORE_TEST_POSTGRES=0 skips on purpose.
 */
export default async function setup(project: TestProject) {
  const reason = process.env.STORE_TEST_POSTGRES === "0" ? "STORE_TEST_POSTGRES=0" : postgresUnavailable();
  if (reason) {
    console.warn(`PostgreSQL tests skipped: ${reason}.`);
    project.provide("postgres", { url: null, skipped: reason });
    return;
  }
  const server = await startPostgres();
  project.provide("postgres", { url: server.url, skipped: null });
  return () => server.stop();
}

import tsconfigPaths from "vite-tsconfig-paths";
import { defineConfig } from "vitest/config";

/**
 * Which test files belong to which suite. `npm run test:unit` runs `unit` (no database, no
 * server: tests/unit), `npm run test:integration` runs `integration` (a real SQLite database per
 * file, and PostgreSQL where a file asks for it: tests/integration and the tests that sit beside
 * the code under server/ and db/). Plain `npx vitest` (no STORE_TEST_SUITE) runs both. Every test
 * file is in exactly one suite; vitest.postgres.config.ts takes the integration files again, on
 * PostgreSQL.
 */
const SUITES = {
  unit: ["tests/unit/**/*.test.ts"],
  integration: ["tests/integration/**/*.test.ts", "server/**/*.test.ts", "db/**/*.test.ts"],
};

const suite = process.env.STORE_TEST_SUITE;
const chosen = suite === "unit" || suite === "integration" ? SUITES[suite] : undefined;
if (suite !== undefined && !chosen) {
  throw new Error(`STORE_TEST_SUITE is "${suite}": use "unit", "integration", or leave it unset for both.`);
}

// The Remix Vite plugin is not made for tests, so tests get their own small config.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: chosen ?? [...SUITES.unit, ...SUITES.integration],
    // The template database and the run's PostgreSQL server; unit tests use neither.
    globalSetup: suite === "unit" ? [] : ["tests/setup/global.ts", "tests/setup/postgres-global.ts"],
    setupFiles: ["tests/setup/each-file.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

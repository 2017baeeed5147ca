import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * `npm run test:postgres`: the integration suite again, on PostgreSQL (issue 13). Every file's
 * createTestContext gets a copy of a migrated template database on the run's throwaway server
 * (tests/setup/postgres-global.ts) instead of an SQLite file. Set here, not only in the npm script,
 * so the global setup (which runs in this process) sees it however vitest is started.
 */
process.env.STORE_TEST_DB = "postgres";

const dir = "tests/integration";

/**
 * Files that already choose their engines themselves (a `describeOnPostgres` block, and no
 * createTestContext/twoWorkers that follows STORE_TEST_DB) ran on PostgreSQL in test:integration:
 * running them again here would test nothing new. Derived from the files, so a new one is sorted
 * by what it does. Files about SQLite itself stay in and skip with their reason
 * (describeOnSqliteOnly in tests/setup/context.ts).
 */
const followsTheEngine = /\b(createTestContext|twoWorkers)\((?![^)]*["'](sqlite|postgres)["'])/;
const chooseTheirOwn = fs
  .readdirSync(dir)
  .filter((file) => file.endsWith(".test.ts"))
  .filter((file) => {
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    return /\bdescribeOnPostgres\(/.test(text) && !followsTheEngine.test(text);
  });

// A machine without PostgreSQL opts out on purpose, and says so; otherwise a missing server fails
// the run (tests/setup/postgres-global.ts), so CI can never skip it by accident.
const optedOut = process.env.STORE_TEST_POSTGRES === "0";
console.log(
  optedOut
    ? "test:postgres skipped: STORE_TEST_POSTGRES=0."
    : `test:postgres leaves out what ran on PostgreSQL in the default run: ${chooseTheirOwn.join(", ")}.`,
);

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: optedOut ? [] : [`${dir}/**/*.test.ts`],
    exclude: chooseTheirOwn.map((file) => `${dir}/${file}`),
    passWithNoTests: optedOut,
    globalSetup: optedOut ? [] : base.test?.globalSetup,
  },
});

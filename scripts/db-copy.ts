/**
 * `npm run db:copy -- --from <sqlite file or postgres://…> --to <postgres://… or sqlite file>`:
 * copies a whole store into an empty database, ids kept (db/copy.ts, decision 0023). Stop the
 * store first: what it writes after the copy's snapshot is not copied.
 */
import { parseArgs } from "node:util";
import { CopyError, copyDatabase, describeTarget } from "#db/copy";
import { databaseFrom } from "#server/config";

try {
  process.loadEnvFile();
} catch {
  // No .env: the arguments alone decide.
}

const USAGE = "Usage: npm run db:copy -- --from <sqlite file or postgres://…> --to <postgres://… or sqlite file>";

function fail(message: string): never {
  console.error(`Nothing copied: ${message}`);
  process.exit(1);
}

let values: { from?: string; to?: string } = {};
try {
  ({ values } = parseArgs({ options: { from: { type: "string" }, to: { type: "string" } } }));
} catch (error) {
  fail(`${(error as Error).message}. ${USAGE}`);
}
if (!values.from?.trim() || !values.to?.trim()) fail(`give both --from and --to. ${USAGE}`);

/** The same reading of a URL or path as DATABASE_URL's (relative paths from here). */
function target(option: string, value: string) {
  try {
    return databaseFrom({ DATABASE_URL: value }, process.cwd());
  } catch (error) {
    return fail((error as Error).message.replace(/^DATABASE_URL\b/, `--${option}`));
  }
}

const from = target("from", values.from);
const to = target("to", values.to);
console.log(`Copying ${describeTarget(from)}\n     to ${describeTarget(to)}`);

try {
  const started = Date.now();
  const width = 28;
  const result = await copyDatabase(from, to, { onTable: (table, rows) => console.log(`  ${table.padEnd(width)} ${rows}`) });
  const total = result.tables.reduce((sum, t) => sum + t.rows, 0);
  if (result.migrated.length) console.log(`The target was migrated first (${result.migrated.length} migrations).`);
  console.log(
    `Copied ${total} rows in ${result.tables.length} tables in ${((Date.now() - started) / 1000).toFixed(1)} s` +
      (result.sequences.length ? `; ${result.sequences.length} id sequences set to continue after the highest id.` : "."),
  );
} catch (error) {
  if (error instanceof CopyError) fail(error.message);
  throw error;
}

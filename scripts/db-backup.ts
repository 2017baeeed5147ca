/**
 * `npm run db:backup [-- --to <file>]`: an online copy of the store's SQLite file, safe while
 * `npm start` serves (every worker may go on writing). Default target:
 * `backups/store-YYYYMMDDTHHMMSSZ.db` beside the data directory. Never overwrites a file.
 */
import { parseArgs } from "node:util";
import { BackupError, backupDatabase, defaultBackupFile } from "#db/backup";
import { dataLocation } from "#server/config";

try {
  process.loadEnvFile();
} catch {
  // No .env: the environment alone decides.
}

function fail(message: string): never {
  console.error(`No backup made: ${message}`);
  process.exit(1);
}

let to: string | undefined;
try {
  ({ to } = parseArgs({ options: { to: { type: "string" } } }).values);
} catch (error) {
  fail(`${(error as Error).message}. Usage: npm run db:backup [-- --to <file>]`);
}

const { dataDir, database } = (() => {
  try {
    return dataLocation();
  } catch (error) {
    return fail((error as Error).message);
  }
})();
if (database.engine === "postgres") {
  fail(
    "DATABASE_URL names a PostgreSQL database, and this command backs up the SQLite file only. " +
      'Back up PostgreSQL with its own tool: pg_dump --format=custom --file=store.dump "$DATABASE_URL" (restore with pg_restore).',
  );
}
const databaseFile = database.file;
if (databaseFile === ":memory:") fail("DATABASE_URL names an in-memory database: there is no file to back up.");

try {
  const { file, bytes } = await backupDatabase(databaseFile, to ?? defaultBackupFile(dataDir, new Date()));
  console.log(`Backed up ${databaseFile}\n       to ${file} (${formatBytes(bytes)}, ${bytes} bytes).`);
} catch (error) {
  if (error instanceof BackupError) fail(error.message);
  throw error;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `npm run db:migrate`: brings the configured SQLite database to the latest schema. */
import { migrateToLatest, openDatabase } from "#db/client";
import { loadConfig } from "#server/config";

try {
  process.loadEnvFile();
} catch {
  // No .env: the environment alone decides.
}

const config = loadConfig();
const db = openDatabase(config.database);
try {
  const applied = await migrateToLatest(db);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
} finally {
  await db.destroy();
}

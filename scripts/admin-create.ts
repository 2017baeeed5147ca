// `npm run admin:create -- <username> <email>`: creates an admin (or promotes and resets an
// existing user). The password is read from ADMIN_PASSWORD or asked for, never taken as an argument
// so it does not land in the shell history.
import { createInterface } from "node:readline/promises";
import { migrateToLatest, openDatabase } from "#db/client";
import { loadConfig } from "#server/config";
import { systemClock } from "#server/context";
import { upsertAdmin } from "#server/services/accounts/users";

try {
  process.loadEnvFile();
} catch {
  // No .env file: fine.
}

const [usernameArg, emailArg] = process.argv.slice(2);
const config = loadConfig();
const username = usernameArg || process.env.ADMIN_USERNAME;
const email = emailArg || process.env.ADMIN_EMAIL;
if (!username || !email) {
  console.error("Usage: npm run admin:create -- <username> <email>   (password from ADMIN_PASSWORD or a prompt)");
  process.exit(2);
}

let password = process.env.ADMIN_PASSWORD ?? "";
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question("Password (at least 6 characters): ");
  rl.close();
}
if (password.length < 6) {
  console.error("Password must be at least 6 characters");
  process.exit(2);
}

const db = openDatabase(config.database);
await migrateToLatest(db);
const outcome = await upsertAdmin({ db, config, clock: systemClock }, { username, password, email });
console.log(outcome === "created" ? `Created admin "${username}".` : `Made "${username}" an admin and set the new password.`);
await db.destroy();

/**
 * `npm run db:seed`: migrates, then fills an empty database (no products and no settings) with the
 * demo catalogue, its generated images and the default settings.
 *
 * `npm run db:seed -- --force` seeds even when the database is not empty: it ADDS the demo products
 * again (existing products stay) and resets all six app settings to the demo values.
 */
import { migrateToLatest, openDatabase, preparingAlone } from "#db/client";
import { seedDemo, seedIfEmpty } from "#server/seed";
import { loadConfig } from "#server/config";
import { describeDatabase } from "#server/startup-banner";
import { systemClock, type AppContext } from "#server/context";

try {
  process.loadEnvFile();
} catch {
  // No .env: the environment alone decides.
}

const force = process.argv.slice(2).includes("--force");
const config = loadConfig();
const ctx: AppContext = { db: openDatabase(config.database), config, clock: systemClock };
try {
  // Not while a starting instance prepares the same database (PostgreSQL): one seeds at a time.
  await preparingAlone(ctx.db, async () => {
    await migrateToLatest(ctx.db);
    if (force) {
      await seedDemo(ctx);
      console.log("Seeded the demo catalogue and reset the settings (--force).");
    } else if (await seedIfEmpty(ctx)) {
      console.log("Seeded the demo catalogue and settings.");
    } else {
      console.log("The database already has products or settings; nothing seeded. Use --force to seed anyway.");
    }
  });
  console.log(`Database: ${describeDatabase(config.database)}\nImages: ${config.uploadsDir}/products`);
} finally {
  await ctx.db.destroy();
}

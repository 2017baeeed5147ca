import { migrateToLatest, openDatabase } from "../db/client";
import { seedIfEmpty } from "./seed";
import { loadConfig } from "./config";
import { systemClock, type AppContext } from "./context";
import { ensureAdmin } from "./services/users";

export interface BootReport {
  migrations: string[];
  seeded: boolean;
  adminCreated: string | null;
}

type Booted = { ctx: AppContext; report: BootReport };

const globalStore = globalThis as typeof globalThis & { __storeBoot?: Promise<Booted> };

/** Opens the database, migrates it, seeds an empty one and makes sure an admin exists. */
async function boot(): Promise<Booted> {
  const config = loadConfig();
  const db = openDatabase(config.databaseFile);
  const ctx: AppContext = { db, config, clock: systemClock };
  const migrations = await migrateToLatest(db);
  const seeded = config.seedOnEmpty ? await seedIfEmpty(ctx) : false;
  const adminCreated = await ensureAdmin(ctx, config.admin);
  return { ctx, report: { migrations, seeded, adminCreated } };
}

/**
 * The one application context of this process, created on first use. Kept on globalThis so
 * that the dev server's module reloads do not open a second database.
 */
export function booted(): Promise<Booted> {
  globalStore.__storeBoot ??= boot().catch((error) => {
    globalStore.__storeBoot = undefined;
    throw error;
  });
  return globalStore.__storeBoot;
}

export async function getAppContext(): Promise<AppContext> {
  return (await booted()).ctx;
}

/** Tests point the doors at their own database. */
export function useAppContextForTests(ctx: AppContext): void {
  globalStore.__storeBoot = Promise.resolve({ ctx, report: { migrations: [], seeded: false, adminCreated: null } });
}

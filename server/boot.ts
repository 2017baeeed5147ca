import cluster from "node:cluster";
import { migrateToLatest, openDatabase, preparingAlone } from "#db/client";
import { seedIfEmpty } from "./seed";
import { loadConfig, type Config } from "./config";
import { systemClock, type AppContext } from "./context";
import { ensureAdmin } from "./services/accounts/users";
import { configureLog } from "./observability/log";
import { raiseAlert, type AlertKind } from "./services/alerts/alerts";

export interface BootReport {
  migrations: string[];
  seeded: boolean;
  adminCreated: string | null;
}

type Booted = { ctx: AppContext; report: BootReport };

const globalStore = globalThis as typeof globalThis & { __storeBoot?: Promise<Booted> };

const nothingDone: BootReport = { migrations: [], seeded: false, adminCreated: null };

/**
 * Migrates the database, seeds an empty one and makes sure an admin exists, as the only process
 * doing so: instances starting at once on one PostgreSQL take turns, and the later ones find it done.
 */
export function prepareDatabase(ctx: AppContext): Promise<BootReport> {
  return preparingAlone(ctx.db, async () => {
    const migrations = await migrateToLatest(ctx.db);
    const seeded = ctx.config.seedOnEmpty ? await seedIfEmpty(ctx) : false;
    const adminCreated = await ensureAdmin(ctx, ctx.config.admin);
    return { migrations, seeded, adminCreated };
  });
}

/**
 * Opens the database; a single process also prepares it. A worker of `npm start` does not: its
 * primary prepared the database once before forking (prepareStore), so workers never race the schema.
 */
async function boot(): Promise<Booted> {
  const config = loadConfig();
  await configureLog(config.log);
  const db = openDatabase(config.database);
  const ctx: AppContext = { db, config, clock: systemClock };
  const report = cluster.isWorker ? nothingDone : await prepareDatabase(ctx);
  return { ctx, report };
}

/**
 * For the primary process of `npm start`, before it forks its workers: reads the configuration
 * (generating the session secret once), prepares the database and closes it again.
 */
export async function prepareStore(): Promise<{ config: Config; report: BootReport }> {
  const config = loadConfig();
  await configureLog(config.log);
  const db = openDatabase(config.database);
  try {
    return { config, report: await prepareDatabase({ db, config, clock: systemClock }) };
  } finally {
    await db.destroy();
  }
}

/**
 * An alert from `npm start`'s primary, which keeps no database open (a worker restart loop, issue
 * 27): opens one for the alert and closes it again. Never throws.
 */
export async function alertFromPrimary(config: Config, kind: AlertKind, detail: string): Promise<void> {
  const db = openDatabase(config.database);
  try {
    await raiseAlert({ db, config, clock: systemClock }, kind, detail);
  } finally {
    await db.destroy().catch(() => {});
  }
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
  globalStore.__storeBoot = Promise.resolve({ ctx, report: nothingDone });
}

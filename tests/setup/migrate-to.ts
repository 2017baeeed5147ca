import { Migrator } from "kysely";
import type { Db } from "#db/client";
import { migrations } from "#db/migrations/index";

/** Kysely's migrator over the store's own migrations, for a test that reads a step's outcome itself. */
export const migratorOf = (db: Db) => new Migrator({ db, provider: { getMigrations: async () => migrations } });

/** Applies (or undoes) the store's migrations up to and including `name`; a failed step throws its error. */
export async function migrateTo(db: Db, name: string): Promise<void> {
  const { error } = await migratorOf(db).migrateTo(name);
  if (error) throw error;
}

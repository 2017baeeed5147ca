import fs from "node:fs";
import { migrateToLatest, openDatabase } from "../../db/client";
import { TEMPLATE_DB, TMP_DIR } from "./paths";

/** Migrates one template database; every test file copies it rather than migrating again. */
export default async function setup() {
  fs.rmSync(TMP_DIR, { recursive: true, force: true });
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const db = openDatabase(TEMPLATE_DB);
  await migrateToLatest(db);
  // Fold the WAL into the main file so a plain copy carries every table.
  const { sql } = await import("kysely");
  await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db);
  await sql`PRAGMA journal_mode = DELETE`.execute(db);
  await db.destroy();
}

import fs from "node:fs";
import Database from "better-sqlite3";
import { migrateToLatest, openDatabase } from "#db/client";
import { TEMPLATE_DB, TMP_DIR } from "./paths";

/** Migrates one template database; every test file copies it rather than migrating again. */
export default async function setup() {
  fs.rmSync(TMP_DIR, { recursive: true, force: true });
  fs.mkdirSync(TMP_DIR, { recursive: true });
  const db = openDatabase(TEMPLATE_DB);
  await migrateToLatest(db);
  await db.destroy();
  // Fold the WAL into the main file so a plain copy carries every table (alone on the file: leaving
  // WAL needs every other connection closed, the store's reading one included).
  const file = new Database(TEMPLATE_DB);
  file.pragma("wal_checkpoint(TRUNCATE)");
  file.pragma("journal_mode = DELETE");
  file.close();
}

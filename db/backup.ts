import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

/** A backup that cannot be made; its message is for the person who ran the command. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** `backups/store-20261124T235959Z.db` beside the data directory (not inside it: a restore replaces that). */
export function defaultBackupFile(dataDir: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}Z$/, "Z");
  return path.join(path.dirname(path.resolve(dataDir)), "backups", `store-${stamp}.db`);
}

/**
 * Copies the store's SQLite file to `target` through SQLite's online backup, which reads a
 * consistent snapshot, committed WAL content included, while the store's workers go on writing.
 * Never overwrites: the copy is written beside the target and linked into place, which fails if
 * a file appeared there meanwhile.
 */
export async function backupDatabase(source: string, target: string): Promise<{ file: string; bytes: number }> {
  const file = path.resolve(target);
  if (!fs.existsSync(source)) throw new BackupError(`There is no database at ${source}. Set DATA_DIR or DATABASE_URL to the store's.`);
  if (fs.existsSync(file)) throw new BackupError(`${file} already exists; a backup never overwrites one. Choose another --to.`);

  let db: Database.Database;
  try {
    db = new Database(source, { fileMustExist: true });
  } catch (error) {
    throw new BackupError(`Cannot open the database at ${source}: ${(error as Error).message}`);
  }
  const partial = `${file}.partial-${process.pid}`;
  try {
    db.pragma("busy_timeout = 5000");
    const isStore = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get();
    if (!isStore) throw new BackupError(`${source} is not the store's database (it has no migrations table).`);

    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.accessSync(path.dirname(file), fs.constants.W_OK);
    } catch (error) {
      throw new BackupError(`Cannot write to ${path.dirname(file)}: ${reason(error)}.`);
    }

    // All pages in one step: one read snapshot for the whole copy. In steps of 100 pages (the
    // default) SQLite restarts the copy whenever another connection writes between two steps,
    // which on a busy store may be every time.
    await db.backup(partial, { progress: () => 0x7fffffff });

    // The copy keeps the source's WAL mark; a rollback journal makes it one self-contained file
    // that opens read-only anywhere. The store turns WAL on again when it opens a restored copy.
    const copy = new Database(partial);
    try {
      copy.pragma("journal_mode = DELETE");
      const check = copy.pragma("quick_check", { simple: true });
      if (check !== "ok") throw new BackupError(`The copy failed SQLite's quick_check (${String(check)}); nothing was kept.`);
    } finally {
      copy.close();
    }

    try {
      fs.linkSync(partial, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") {
        throw new BackupError(`${file} already exists; a backup never overwrites one. Choose another --to.`);
      }
      throw new BackupError(`Cannot write ${file}: ${reason(error)}.`);
    }
    return { file, bytes: fs.statSync(file).size };
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`The backup failed: ${(error as Error).message}`);
  } finally {
    db.close();
    for (const leftover of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`]) {
      try {
        fs.rmSync(leftover, { force: true });
      } catch {
        // Its directory was never writable, so there is nothing to remove.
      }
    }
  }
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EACCES" || code === "EPERM") return "permission denied (run it as the store's user, or choose another --to)";
  if (code === "EEXIST" || code === "ENOTDIR") return "part of that path is a file, not a directory";
  if (code === "EROFS") return "the file system is read-only";
  if (code === "ENOSPC") return "the disk is full";
  return code ?? (error as Error).message;
}

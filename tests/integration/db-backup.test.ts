import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { describeOnSqliteOnly } from "../setup/context";
import { TEMPLATE_DB, TMP_DIR } from "../setup/paths";

const root = path.join(TMP_DIR, `backup-${process.pid}-${crypto.randomUUID().slice(0, 8)}`);
const dataDir = path.join(root, "data");
const storeFile = path.join(dataDir, "store.db");
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** `npm run db:backup` as an operator runs it, against this file's store. */
function runBackup(
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/db-backup.ts", ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: storeFile, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const now = new Date().toISOString();
const address = JSON.stringify({ street: "1 Main St", city: "Brooklyn", state: "NY", zipCode: "11201", country: "US" });

/** One worker's write: a product and an order for it, in one transaction. */
function sell(db: Database.Database, tag: string) {
  db.transaction(() => {
    db.prepare("INSERT INTO products (name, description, price_cents, inventory, created_at, updated_at) VALUES (?, ?, 4000, 5, ?, ?)").run(
      `Tee ${tag}`,
      // A page's worth of text per product, so the store is a few megabytes and the copy takes a while.
      `Heavyweight cotton. ${"x".repeat(2000)}`,
      now,
      now,
    );
    db.prepare(
      "INSERT INTO orders (customer_email, customer_name, shipping_address, subtotal_cents, total_cents, status, created_at, updated_at) VALUES (?, ?, ?, 4000, 4000, 'processing', ?, ?)",
    ).run(`buyer-${tag}@example.com`, `Buyer ${tag}`, address, now, now);
  })();
}

describeOnSqliteOnly("db:backup copies the SQLite file (PostgreSQL is backed up with pg_dump; README)")("npm run db:backup", () => {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.copyFileSync(TEMPLATE_DB, storeFile);

  it("copies a store that another connection keeps writing to, with every row committed before it started", async () => {
    const worker = new Database(storeFile);
    worker.pragma("journal_mode = WAL");
    worker.pragma("busy_timeout = 5000");
    // No checkpoints: what is committed stays in the -wal file, as between a worker's checkpoints,
    // so a plain copy of store.db would miss it.
    worker.pragma("wal_autocheckpoint = 0");
    for (let i = 0; i < 2000; i++) sell(worker, `before-${i}`);
    expect(fs.statSync(`${storeFile}-wal`).size).toBeGreaterThan(4_000_000);

    let during = 0;
    const writing = setInterval(() => sell(worker, `during-${during++}`), 1);
    const result = await runBackup();
    clearInterval(writing);

    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const backups = fs.readdirSync(path.join(root, "backups"));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^store-\d{8}T\d{6}Z\.db$/);
    const copyFile = path.join(root, "backups", backups[0]!);
    expect(result.stdout).toContain(copyFile);
    expect(result.stdout).toContain(`${fs.statSync(copyFile).size} bytes`);
    // The store kept taking orders while the backup ran.
    expect(during).toBeGreaterThan(0);

    const copy = new Database(copyFile, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const names = copy.prepare("SELECT name FROM products WHERE name LIKE 'Tee before-%'").pluck().all();
      expect(names).toHaveLength(2000);
      expect(names).toContain("Tee before-1999");
      const buyers = copy.prepare("SELECT customer_email FROM orders WHERE customer_email LIKE 'buyer-before-%'").pluck().all();
      expect(buyers).toHaveLength(2000);
      expect(buyers).toContain("buyer-before-1999@example.com");
      // One snapshot: every write taken whole (its product with its order), none half.
      const productsDuring = copy.prepare("SELECT count(*) FROM products WHERE name LIKE 'Tee during-%'").pluck().get();
      const ordersDuring = copy.prepare("SELECT count(*) FROM orders WHERE customer_email LIKE 'buyer-during-%'").pluck().get();
      expect(productsDuring).toBe(ordersDuring);
    } finally {
      copy.close();
      worker.close();
    }
  }, 60_000);

  it("refuses to overwrite an existing file, and says so", async () => {
    const target = path.join(root, "kept.db");
    fs.writeFileSync(target, "last week's backup");
    const result = await runBackup(["--to", target]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${target} already exists`);
    expect(fs.readFileSync(target, "utf8")).toBe("last week's backup");
  });

  it("explains a missing database, an unwritable target and a PostgreSQL URL", async () => {
    const missing = await runBackup([], { DATABASE_URL: path.join(root, "nowhere", "store.db") });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("There is no database at");
    expect(fs.existsSync(path.join(root, "nowhere"))).toBe(false);

    // A file where a directory should be: unwritable whoever runs the test (root included).
    fs.writeFileSync(path.join(root, "a-file"), "");
    const unwritable = await runBackup(["--to", path.join(root, "a-file", "store.db")]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toContain("not a directory");

    const postgres = await runBackup([], { DATABASE_URL: "postgres://shop:hunter2@db.internal/shop" });
    expect(postgres.code).toBe(1);
    expect(postgres.stderr).toContain("pg_dump");
    expect(postgres.stderr).not.toContain("hunter2");
  });
});

import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { expect, it } from "vitest";
import { openDatabase } from "#db/client";
import { describeOnSqliteOnly } from "../setup/context";
import { TMP_DIR } from "../setup/paths";

function runWriter(file: string, count: number, startAt: number): Promise<{ failures: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/fixtures/sqlite-writer.ts", file, String(count), String(startAt)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`writer exited with ${code}:\n${stderr}`));
      resolve({ ...(JSON.parse(stdout.trim().split("\n").pop()!) as { failures: number }), stderr });
    });
  });
}

describeOnSqliteOnly(
  "BEGIN IMMEDIATE and busy_timeout between processes on one file; PostgreSQL's concurrency is tested by postgres-races",
)("two processes writing one SQLite file (the workers of npm start)", () => {
  it("never fail with SQLITE_BUSY and lose no update, even when reads and writes interleave", async () => {
    const dir = path.join(TMP_DIR, `writers-${process.pid}-${Date.now()}`);
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, "store.db");
    const db = openDatabase(file);
    await sql`CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER NOT NULL)`.execute(db);
    await sql`INSERT INTO counter (id, value) VALUES (1, 0)`.execute(db);

    const perWriter = 150;
    const startAt = Date.now() + 3_000;
    const results = await Promise.all([runWriter(file, perWriter, startAt), runWriter(file, perWriter, startAt)]);

    expect(results.map((r) => r.stderr).join("")).toBe("");
    expect(results.map((r) => r.failures)).toEqual([0, 0]);
    const { rows } = await sql<{ value: number }>`SELECT value FROM counter WHERE id = 1`.execute(db);
    expect(rows[0]!.value).toBe(2 * perWriter);
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});

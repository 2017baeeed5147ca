import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, databaseFrom, loadConfig } from "#server/config";
import { describeDatabase, startupBanner } from "#server/startup-banner";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "database-url-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const databaseOf = (url?: string) => loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", SESSION_SECRET: "s", DATABASE_URL: url }).database;
const databaseFileOf = (url?: string) => {
  const database = databaseOf(url);
  if (database.engine !== "sqlite") throw new Error(`DATABASE_URL=${url} is not SQLite`);
  return database.file;
};

function configErrorOf(url: string): ConfigError {
  try {
    databaseFileOf(url);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`DATABASE_URL=${url} was accepted`);
}

describe("DATABASE_URL", () => {
  it("defaults to store.db in the data directory", () => {
    expect(databaseFileOf()).toBe(path.join(dataDir, "store.db"));
    expect(databaseFileOf("")).toBe(path.join(dataDir, "store.db"));
  });

  it("takes a path, or a sqlite: or file: URL of one", () => {
    expect(databaseFileOf("/srv/shop/store.db")).toBe("/srv/shop/store.db");
    expect(databaseFileOf("./db/store.db")).toBe(path.resolve("db/store.db"));
    expect(databaseFileOf("sqlite:./db/store.db")).toBe(path.resolve("db/store.db"));
    expect(databaseFileOf("sqlite:///srv/shop/store.db")).toBe("/srv/shop/store.db");
    expect(databaseFileOf("file:/srv/shop/store.db")).toBe("/srv/shop/store.db");
    expect(databaseFileOf("file::memory:")).toBe(":memory:");
  });

  it("reads a postgres:// or postgresql:// URL as PostgreSQL, with DATABASE_POOL_SIZE connections (10 by default)", () => {
    const url = "postgres://shop:hunter2@db.internal:5432/shop";
    expect(databaseFrom({ DATABASE_URL: url }, dataDir)).toEqual({ engine: "postgres", url, poolSize: 10 });
    expect(databaseFrom({ DATABASE_URL: "postgresql://db.internal/shop", DATABASE_POOL_SIZE: "25" }, dataDir)).toEqual({
      engine: "postgres",
      url: "postgresql://db.internal/shop",
      poolSize: 25,
    });
    for (const size of ["0", "-1", "2.5", "many"]) {
      expect(() => databaseFrom({ DATABASE_URL: url, DATABASE_POOL_SIZE: size }, dataDir)).toThrow(
        `DATABASE_POOL_SIZE must be a whole number of connections (1 or more), not "${size}".`,
      );
    }
    expect(databaseFrom({ DATABASE_URL: "./db/store.db", DATABASE_POOL_SIZE: "0" }, dataDir)).toEqual({
      engine: "sqlite",
      file: path.resolve("db/store.db"),
    });
  });

  it("runs the store on a PostgreSQL URL, and the banner names its host, port and database but never the password", () => {
    const url = "postgres://shop:hunter2@db.internal:6432/shop";
    expect(databaseOf(url)).toEqual({ engine: "postgres", url, poolSize: 10 });
    expect(describeDatabase(databaseOf(url))).toBe("PostgreSQL db.internal:6432, database shop");
    expect(describeDatabase(databaseOf("postgresql://db.internal/shop"))).toBe("PostgreSQL db.internal:5432, database shop");
    expect(describeDatabase(databaseOf("postgres://shop:hunter2@/shop?host=/run/postgresql"))).toBe(
      "PostgreSQL /run/postgresql:5432, database shop",
    );
    const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", SESSION_SECRET: "s", DATABASE_URL: url });
    const banner = startupBanner(config, { migrations: [], seeded: false, adminCreated: null }).join("\n");
    expect(banner).toContain("(database: PostgreSQL db.internal:6432, database shop)");
    expect(banner).not.toContain("hunter2");
  });

  it("refuses other URLs, naming only the scheme", () => {
    expect(configErrorOf("mysql://root:hunter2@localhost/shop").message).toBe(
      "DATABASE_URL must be a path to an SQLite file (or a sqlite:/file: URL) or a postgres:// URL; mysql:// is not supported.",
    );
    expect(configErrorOf("http://db.example/store.db").message).toContain("http:// is not supported.");
    expect(configErrorOf("sqlite:").message).toContain("names no file");
  });
});

describe("UPLOADS_DIR", () => {
  const uploadsOf = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", SESSION_SECRET: "s", ...env }).uploadsDir;

  it("defaults to the data folder's uploads", () => {
    expect(uploadsOf({})).toBe(path.join(dataDir, "uploads"));
  });

  it("names a folder several instances share", () => {
    expect(uploadsOf({ UPLOADS_DIR: "/mnt/legacy-uploads" })).toBe("/mnt/legacy-uploads");
    expect(uploadsOf({ UPLOADS_DIR: "./shared/uploads" })).toBe(path.resolve("shared/uploads"));
  });
});

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "database-url-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const databaseFileOf = (url?: string) =>
  loadConfig({ DATA_DIR: dataDir, NODE_ENV: "test", SESSION_SECRET: "s", DATABASE_URL: url }).databaseFile;

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

  it("stops the start with a ConfigError naming the scheme when it is a PostgreSQL URL", () => {
    const error = configErrorOf("postgres://shop:hunter2@db.internal:5432/shop");
    expect(error.name).toBe("ConfigError");
    expect(error.message).toBe("DATABASE_URL must be a path to an SQLite file (or a sqlite:/file: URL); postgres:// is not supported yet.");
    // The password in the URL never reaches the logs.
    expect(error.message).not.toContain("hunter2");
    expect(configErrorOf("postgresql://db.internal/shop").message).toContain("postgresql:// is not supported yet.");
  });

  it("refuses other URLs the same way", () => {
    expect(configErrorOf("mysql://root@localhost/shop").message).toBe(
      "DATABASE_URL must be a path to an SQLite file (or a sqlite:/file: URL); mysql:// is not supported.",
    );
    expect(configErrorOf("http://db.example/store.db").message).toContain("http:// is not supported.");
    expect(configErrorOf("sqlite:").message).toContain("names no file");
  });
});

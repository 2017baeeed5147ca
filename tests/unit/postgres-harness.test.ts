// The PostgreSQL harness finds Debian's binaries, or says why it cannot (the tests then skip).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { findPostgresBin, postgresUnavailable } from "../setup/postgres";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "pg-root-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

it("says plainly that the binaries are absent when there are none", () => {
  expect(findPostgresBin({}, root)).toBeNull();
  expect(postgresUnavailable({}, root)).toMatch(/^PostgreSQL binaries not found/);
});

it("takes the newest version's bin directory, or PG_BIN", () => {
  for (const version of ["9", "15", "13"]) {
    const bin = path.join(root, version, "bin");
    fs.mkdirSync(bin, { recursive: true });
    for (const program of ["initdb", "pg_ctl"]) fs.writeFileSync(path.join(bin, program), "");
  }
  expect(findPostgresBin({}, root)).toBe(path.join(root, "15", "bin"));
  expect(findPostgresBin({ PG_BIN: path.join(root, "9", "bin") }, root)).toBe(path.join(root, "9", "bin"));
});

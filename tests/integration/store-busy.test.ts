// A database out of reach for a moment (PostgreSQL restarting, failing over, an administrator
// ending the store's sessions) is answered 503 with Retry-After and a message saying to try
// again, on REST and tRPC alike, not as a 500 (decision 0041). The database here fails every
// query as node-postgres does when the server ended the session; the real thing, with a real
// server restarted under two built stores and their pages, is postgres-restart.test.ts.
import { CamelCasePlugin, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Driver } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/schema";
import { useAppContextForTests } from "#server/boot";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { expectLoggedErrors, loggedLines } from "../setup/log-capture";

const ctx = createTestContext();
const shopper = new CookieJar();

/** What pg rejects a query with after a `pg_ctl restart -m fast` or a pg_terminate_backend. */
const ended = () => Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01", severity: "FATAL" });

/** A database whose every query fails as one whose server went away. */
function unreachable(error: () => Error): Kysely<DB> {
  const driver: Driver = {
    init: async () => {},
    acquireConnection: async () => Promise.reject(error()),
    beginTransaction: async () => {},
    commitTransaction: async () => {},
    rollbackTransaction: async () => {},
    releaseConnection: async () => {},
    destroy: async () => {},
  };
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => driver,
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    plugins: [new CamelCasePlugin()],
  });
}

const BUSY = { message: "The store is busy for a moment. Please try again.", errors: {} };

beforeAll(async () => {
  useAppContextForTests(ctx);
  const registered = await api("POST", "/api/register", {
    body: { username: "shopper", password: "shopper1", email: "s@example.com" },
    jar: shopper,
  });
  expect(registered.status).toBe(201);
});

afterAll(() => useAppContextForTests(ctx));

describe("a database out of reach", () => {
  for (const [name, error] of [
    ["the server ended the session (57P01)", ended],
    [
      "the server refuses connections (ECONNREFUSED)",
      () => Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
    ],
    ["the connection ended under a query", () => new Error("Connection terminated unexpectedly")],
  ] as const) {
    it(`answers a REST request 503 with Retry-After: ${name}`, async () => {
      useAppContextForTests({ ...ctx, db: unreachable(error) });
      const response = await api("POST", "/api/cart", { body: { productId: 1, quantity: 1 }, jar: shopper });
      expect(response.status).toBe(503);
      expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(response.headers.get("Cache-Control")).toBe("no-store");
      expect(await response.json()).toEqual(BUSY);
    });
  }

  it("answers a tRPC call 503 with Retry-After, whether the session read or the procedure met it", async () => {
    useAppContextForTests({ ...ctx, db: unreachable(ended) });
    const response = await api("GET", "/api/trpc/session.me", { jar: shopper });
    expect(response.status).toBe(503);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    const { error } = (await response.json()) as { error: { message: string; data: { code: string; httpStatus: number } } };
    expect(error.message).toBe(BUSY.message);
    expect(error.data).toMatchObject({ code: "SERVICE_UNAVAILABLE", httpStatus: 503 });
  });

  it("answers as usual once the database is back", async () => {
    useAppContextForTests(ctx);
    const response = await api("GET", "/api/trpc/session.me", { jar: shopper });
    expect(response.status).toBe(200);
    expect((await response.json()).result.data).toMatchObject({ username: "shopper" });
  });

  it("still answers any other failure 500, logged", async () => {
    // A programming error is not "try again": it stays a 500 (and the error it logs is expected here).
    const { toErrorResponse } = await import("#server/http/rest");
    expectLoggedErrors();
    const response = toErrorResponse(new TypeError("Cannot read properties of undefined"));
    expect(response.status).toBe(500);
    expect(response.headers.get("Retry-After")).toBeNull();
    expect(
      loggedLines()
        .filter((line) => line.level === "error")
        .map((line) => line.err?.message),
    ).toEqual(["Cannot read properties of undefined"]);
  });
});

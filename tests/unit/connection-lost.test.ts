import { describe, expect, it } from "vitest";
import { isConnectionLost } from "#db/connection-lost";

const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isConnectionLost", () => {
  it.each([
    ["a restart or pg_terminate_backend (57P01)", coded("57P01", "terminating connection due to administrator command")],
    ["a crashed server (57P02)", coded("57P02")],
    ["a server starting up or shutting down (57P03)", coded("57P03", "the database system is starting up")],
    ["a connection failure (08006)", coded("08006")],
    ["no connection (08003)", coded("08003")],
    ["unable to connect (08001)", coded("08001")],
    ["a connection exception (08000)", coded("08000")],
    ["a full server during reconnection (53300)", coded("53300", "sorry, too many clients already")],
    ["a refused connection", coded("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432")],
    ["a reset connection", coded("ECONNRESET", "read ECONNRESET")],
    ["the connection ending under a query", new Error("Connection terminated unexpectedly")],
    ["a query on a broken connection", new Error("Client has encountered a connection error and is not queryable")],
    ["opening a connection outliving its bound", new Error("timeout expired")],
    ["a wrapped cause", new Error("outer", { cause: coded("57P01") })],
    ["every address refusing", new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")], "connect failed")],
  ])("is true for %s", (_, error) => {
    expect(isConnectionLost(error)).toBe(true);
  });

  it.each([
    ["a unique violation", coded("23505", "duplicate key value violates unique constraint")],
    ["an out-of-range value", coded("22003", "value out of range for type integer")],
    ["a deadlock", coded("40P01")],
    ["SQLite busy", coded("SQLITE_BUSY", "database is locked")],
    ["a programming error", new TypeError("Cannot read properties of undefined")],
    ["a message that merely mentions terminated", new Error("Subscription terminated by the customer")],
    ["a message that merely mentions a timeout", new Error("The label request's timeout expired")],
    ["a vendor's request failing (fetch failed, caused by ECONNRESET)", new TypeError("fetch failed", { cause: coded("ECONNRESET") })],
    ["not an error", "Connection terminated"],
    ["nothing", undefined],
  ])("is false for %s", (_, error) => {
    expect(isConnectionLost(error)).toBe(false);
  });

  it("does not loop on a cause that points at itself", () => {
    const error = coded("23505") as Error & { cause?: unknown };
    error.cause = error;
    expect(isConnectionLost(error)).toBe(false);
  });
});

import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it } from "vitest";
import { Conflict, DomainError, EmptyCart, Forbidden, Invalid, NotFound, TooMany, Unauthenticated } from "#server/errors";
import { statusOf, trpcCodeOf, type KnownError } from "#server/http/error-status";
import { BodyTooLarge } from "#server/http/requests/request-body";
import { toErrorResponse } from "#server/http/rest";
import { SoldOut } from "#server/services/drop/sold-out-misses";

// One table for the REST, page and tRPC doors (issue 22): each error's status, and tRPC's code
// for it, which tRPC itself answers with the same status.
const cases: [string, KnownError, number, string][] = [
  ["Invalid", new Invalid("Bad."), 400, "BAD_REQUEST"],
  ["EmptyCart", new EmptyCart("Empty."), 400, "BAD_REQUEST"],
  ["Unauthenticated", new Unauthenticated("Sign in."), 401, "UNAUTHORIZED"],
  ["Forbidden", new Forbidden("Admins only."), 403, "FORBIDDEN"],
  ["NotFound", new NotFound("Gone."), 404, "NOT_FOUND"],
  ["Conflict", new Conflict("Taken."), 409, "CONFLICT"],
  ["SoldOut", new SoldOut(1, "Tee"), 409, "CONFLICT"],
  ["BodyTooLarge", new BodyTooLarge(64 * 1024), 413, "PAYLOAD_TOO_LARGE"],
  ["TooMany", new TooMany("Slow down.", 30), 429, "TOO_MANY_REQUESTS"],
  ["a plain DomainError", new DomainError("Something about the input."), 400, "BAD_REQUEST"],
];

describe("what an error means at each door", () => {
  it.each(cases)("%s: HTTP %i, tRPC %s", (_name, error, status, code) => {
    expect(statusOf(error)).toBe(status);
    expect(trpcCodeOf(error)).toBe(code);
    expect(getHTTPStatusCodeFromError(new TRPCError({ code: trpcCodeOf(error) }))).toBe(status);
  });

  it("answers REST with the table's status and the readable message", async () => {
    const tooMany = toErrorResponse(new TooMany("Slow down.", 30));
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get("Retry-After")).toBe("30");
    expect(await tooMany.json()).toEqual({ message: "Slow down.", errors: {} });

    const tooLarge = toErrorResponse(new BodyTooLarge(64 * 1024));
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ message: "The request is too large.", errors: {} });
  });
});

import { Conflict, DomainError, Forbidden, Invalid, NotFound, TooMany, Unauthenticated } from "#server/errors";
import { BodyTooLarge } from "./requests/request-body";

/** tRPC's names (TRPCError codes) for the statuses below, spelled here so nothing imports tRPC for them. */
export type TrpcCode = "BAD_REQUEST" | "UNAUTHORIZED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "TOO_MANY_REQUESTS";

/** An error with a meaning at every door: what the services throw, and a body over its limit. */
export type KnownError = DomainError | BodyTooLarge;

interface Meaning {
  error: abstract new (...args: never[]) => KnownError;
  status: number;
  trpc: TrpcCode;
}

/**
 * What each error means at a door: its HTTP status for REST and the page doors, and tRPC's code for
 * the same status, side by side so the doors cannot drift apart. The first row the error is an
 * instance of wins (SoldOut is a Conflict); a DomainError of no kind listed is bad input.
 */
const MEANINGS: readonly Meaning[] = [
  { error: Invalid, status: 400, trpc: "BAD_REQUEST" },
  { error: Unauthenticated, status: 401, trpc: "UNAUTHORIZED" },
  { error: Forbidden, status: 403, trpc: "FORBIDDEN" },
  { error: NotFound, status: 404, trpc: "NOT_FOUND" },
  { error: Conflict, status: 409, trpc: "CONFLICT" },
  { error: BodyTooLarge, status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  { error: TooMany, status: 429, trpc: "TOO_MANY_REQUESTS" },
];
const OTHERWISE: Meaning = { error: DomainError, status: 400, trpc: "BAD_REQUEST" };

const meaningOf = (error: KnownError): Meaning => MEANINGS.find((meaning) => error instanceof meaning.error) ?? OTHERWISE;

/** The HTTP status a REST or page door answers the error with. */
export const statusOf = (error: KnownError): number => meaningOf(error).status;

/** The TRPCError code the tRPC door throws for the error. */
export const trpcCodeOf = (error: KnownError): TrpcCode => meaningOf(error).trpc;

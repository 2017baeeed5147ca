/**
 * Typed domain errors. Services throw these; each door translates them into its own form
 * (a conform reply or toast, a TRPCError, a status code with JSON).
 */
import type { ZodError } from "zod";
import { fieldErrorsOf, type FieldErrors } from "./contracts/field-errors";

export type { FieldErrors };

export class DomainError extends Error {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad input: 400. */
export class Invalid extends DomainError {
  /** A failed parse: its first message up front, every field's messages beside it. */
  static fromZod(error: ZodError): Invalid {
    return new Invalid(error.issues[0]?.message ?? "Invalid input.", fieldErrorsOf(error));
  }
}
/** Nothing in the bag to check out (400, as Invalid): page doors send the buyer home instead. */
export class EmptyCart extends Invalid {}
/** Not signed in, or wrong credentials: 401. */
export class Unauthenticated extends DomainError {}
/** Signed in but not allowed: 403. */
export class Forbidden extends DomainError {}
export class NotFound extends DomainError {}
/** The request clashes with the current state (an existing subscriber, a sold-out unit): 409. */
export class Conflict extends DomainError {}
export class TooMany extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * Typed domain errors. Services throw these; each door translates them into its own form
 * (a conform reply or toast, a TRPCError, a status code with JSON).
 */
export type FieldErrors = Record<string, string[]>;

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
export class Invalid extends DomainError {}
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

import type { RequestHead } from "#server/http/requests/request-head";
import type { ZodType } from "zod";
import { DomainError, Invalid, NotFound, TooMany } from "#server/errors";
import { isConnectionLost, reportConnectionLost, storeBusyJson } from "./store-busy";
import { BodyTooLarge, readJson, TOO_LARGE_MESSAGE } from "./requests/request-body";
import { PRIVATE_NO_STORE } from "./cache/cache-control";
import { statusOf } from "./error-status";
import { logError } from "#server/observability/log";
import { asResponse, JsonAnswer } from "./json-answer";
import { rowIdIn } from "#server/contracts/row-id";

/** The answer as it is if it says who may keep it; otherwise the same answer, kept by no cache (a JsonAnswer gets the header itself). */
export function privately(response: Response): Response;
export function privately(response: Response | JsonAnswer): Response | JsonAnswer;
export function privately(response: Response | JsonAnswer): Response | JsonAnswer {
  if (response instanceof JsonAnswer) {
    if (!response.has("Cache-Control")) response.headers.push(["cache-control", PRIVATE_NO_STORE]);
    return response;
  }
  if (response.headers.has("Cache-Control")) return response;
  const headers = new Headers(response.headers);
  headers.set("Cache-Control", PRIVATE_NO_STORE);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** The REST error body: a message a person can read, and per-field messages. */
export interface ErrorBody {
  message: string;
  errors: Record<string, string[]>;
}

export function jsonError(status: number, message: string, errors: Record<string, string[]> = {}, headers?: HeadersInit): Response {
  return jsonErrorAnswer(status, message, errors, headers).toResponse();
}

function jsonErrorAnswer(status: number, message: string, errors: Record<string, string[]> = {}, headers?: HeadersInit): JsonAnswer {
  return new JsonAnswer({ message, errors } satisfies ErrorBody, status, headers);
}

/**
 * Turns a thrown domain error into the REST convention, a body over its limit into the 413, a lost
 * database into a 503; anything else is a logged 500.
 */
export function toErrorResponse(error: unknown): Response {
  return asResponse(toErrorAnswer(error));
}

/** toErrorResponse's answer, the common ones (a 409 sold out, a 400) as a JsonAnswer. */
export function toErrorAnswer(error: unknown): Response | JsonAnswer {
  if (error instanceof Response) return error;
  if (error instanceof BodyTooLarge) return jsonErrorAnswer(statusOf(error), TOO_LARGE_MESSAGE);
  if (error instanceof DomainError) {
    const headers: HeadersInit = error instanceof TooMany ? { "Retry-After": String(error.retryAfterSeconds) } : {};
    return jsonErrorAnswer(statusOf(error), error.message, error.fieldErrors, headers);
  }
  // The database is restarting or failing over: the same request shortly will do (decision 0041).
  if (isConnectionLost(error)) {
    reportConnectionLost(error);
    return storeBusyJson();
  }
  logError("The request failed", error);
  return jsonError(500, "Something went wrong on our side. Please try again.");
}

/**
 * Parses a JSON body with a contract (request-body.ts: at most 64 kB, its text valid Unicode);
 * bad JSON or bad fields become a 400 Invalid; a body over the limit throws BodyTooLarge (a 413).
 */
export async function parseJsonBody<T>(request: RequestHead, schema: ZodType<T>): Promise<T> {
  const result = schema.safeParse(await readJson(request));
  if (!result.success) throw Invalid.fromZod(result.error);
  return result.data;
}

/** The 405: the message names the path's methods; `allow` is the whole Allow header (HEAD, OPTIONS). */
export function methodNotAllowed(allowed: string[], allow = allowed.join(", ")): Response {
  return jsonError(405, `Method not allowed. Use ${allowed.join(" or ")}.`, {}, { Allow: allow });
}

/** A path id such as /orders/{id}: a positive whole number, else 404 with the given message. */
export function pathId(value: string | undefined, notFoundMessage: string): number {
  const id = rowIdIn(value);
  if (id === null) throw new NotFound(notFoundMessage);
  return id;
}

import { REQUEST_BODY_MESSAGES } from "#server/contracts/request-body";
import { Invalid, type FieldErrors } from "#server/errors";
import { fetchRequestFor, type RequestHead } from "./request-head";

/**
 * Every request body the store reads goes through here (decision 0040): refused by its declared
 * length before a byte is read, and counted while it streams (a chunked body declares nothing),
 * so a stranger's 400 MB POST costs the limit and no more. Uploads have limits of their own
 * (product images and background media, in their contracts): they stream to disk, never here.
 */
export const BODY_LIMITS = {
  /** JSON on /api (REST and tRPC) and the forms posted to pages: the largest the store sends is a few kB. */
  form: 64 * 1024,
  /** Stripe's events, read whole before their signature can be checked (Stripe's own are far smaller). */
  webhook: 1024 * 1024,
} as const;

export const TOO_LARGE_MESSAGE = REQUEST_BODY_MESSAGES.tooLarge;
const {
  notUnicode: NOT_UNICODE_MESSAGE,
  notJson: NOT_JSON_MESSAGE,
  notAForm: NOT_A_FORM_MESSAGE,
  tooDeep: TOO_DEEP_MESSAGE,
  incomplete: INCOMPLETE_MESSAGE,
} = REQUEST_BODY_MESSAGES;

/** A body over its limit. Doors answer 413 with TOO_LARGE_MESSAGE. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(TOO_LARGE_MESSAGE);
    this.name = "BodyTooLarge";
  }
}

/**
 * A body that stopped before its end: the sender hung up mid-way, or its framing broke (a chunk
 * size that is no number). The sender's doing, a 400 like any unreadable body. node fails the
 * stream with its own "aborted" (code ECONNRESET), which read as the database's socket would
 * answer every such request 503 and log that the database could not be reached.
 */
export class BodyIncomplete extends Invalid {
  constructor() {
    super(INCOMPLETE_MESSAGE);
    this.name = "BodyIncomplete";
  }
}

/** node's error for a request whose sender hung up before its body was whole (http's ConnResetException). */
export function isBodyAborted(error: unknown): boolean {
  return (
    error instanceof BodyIncomplete ||
    (error instanceof Error && (error as { code?: unknown }).code === "ECONNRESET" && error.message === "aborted")
  );
}

/**
 * Bodies read before their Request was made (the API's write door, node-exchange.ts): such a
 * Request carries none of its own, and this is where every read of a body finds it.
 */
const readAhead = new WeakMap<RequestHead, Uint8Array<ArrayBuffer>>();

/** A bodiless Request whose body is `bytes`, for readBody and everything built on it. */
export function requestWithBodyRead(url: string, init: RequestInit, bytes: Uint8Array<ArrayBuffer>): Request {
  return withBodyRead(new Request(url, init), bytes);
}

/** The request (a head made without a body) whose body is `bytes`, for readBody and everything built on it. */
export function withBodyRead<R extends RequestHead>(request: R, bytes: Uint8Array<ArrayBuffer>): R {
  readAhead.set(request, bytes);
  return request;
}

/** True when the request's body was read before it was made (requestWithBodyRead): nothing of it is still to come. */
export const bodyInHand = (request: RequestHead): boolean => readAhead.has(request);

/** The body's bytes, at most `limit` of them; BodyTooLarge past it, without reading further. */
export async function readBody(request: RequestHead, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && !(Number(declared) <= limit)) throw new BodyTooLarge(limit);
  const known = readAhead.get(request);
  if (known) {
    if (known.byteLength > limit) throw new BodyTooLarge(limit);
    return known;
  }
  const { body } = fetchRequestFor(request);
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read().catch(() => {
        throw new BodyIncomplete();
      });
      if (done) break;
      size += value.byteLength;
      // Not cancelled: that would destroy the socket under the 413 about to be sent on it. Once it
      // is sent, node:http discards what is still arriving (nothing buffered), and keeps the
      // connection; closing it at once would reset it under the client's write, often before the
      // client has read the answer.
      if (size > limit) throw new BodyTooLarge(limit);
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks);
}

/** The body as text (UTF-8; a byte that is not is replaced, as request.text() does). */
export async function readText(request: RequestHead, limit: number): Promise<string> {
  return Buffer.from(await readBody(request, limit)).toString("utf8");
}

// Half of a UTF-16 pair alone is not text (stored as U+FFFD if kept); NUL is text PostgreSQL's
// text columns cannot hold (a 500 there, while SQLite kept it), and no form of the store's means it.
// eslint-disable-next-line no-control-regex -- NUL is the character looked for
const BROKEN_CHARACTER = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\u0000/;

/** True when a string holds a character no field of the store's can keep: a lone surrogate or NUL. */
export const hasBrokenCharacter = (text: string) => BROKEN_CHARACTER.test(text);

/**
 * Deeper than this, a parsed body is none of the store's forms (its deepest, an order's address
 * inside its details, is four levels) but a stranger's: a 64 kB body of `[` nests 32,000 deep, and
 * a walk down it by recursion ends in a RangeError (a 500) before any contract is asked.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * The fields of a parsed body that cannot be read, by dotted path as zod names them ("" for the
 * body itself): text with a broken character (JSON's `\ud800` or `\u0000` escapes; keys count as
 * their object's text), and an object or array nested past MAX_BODY_DEPTH, which is not walked further.
 */
export function unreadableFields(value: unknown): FieldErrors {
  const found: FieldErrors = {};
  const path: string[] = [];
  const walk = (item: unknown) => {
    if (typeof item === "string") {
      if (hasBrokenCharacter(item)) found[path.join(".")] = [NOT_UNICODE_MESSAGE];
      return;
    }
    if (item === null || typeof item !== "object") return;
    if (path.length >= MAX_BODY_DEPTH) {
      found[path.join(".")] = [TOO_DEEP_MESSAGE];
      return;
    }
    for (const [key, child] of Array.isArray(item) ? item.entries() : Object.entries(item)) {
      if (typeof key === "string" && hasBrokenCharacter(key)) {
        found[path.join(".")] = [NOT_UNICODE_MESSAGE];
        continue;
      }
      path.push(String(key));
      walk(child);
      path.pop();
    }
  };
  walk(value);
  return found;
}

/**
 * Invalid (400, with a field error each) when any text in the parsed value has a broken character,
 * or it nests past MAX_BODY_DEPTH (that message first: nothing below it was looked at).
 */
export function refuseUnreadable(value: unknown): void {
  const fields = unreadableFields(value);
  const messages = Object.values(fields).flat();
  if (messages.length === 0) return;
  throw new Invalid(messages.includes(TOO_DEEP_MESSAGE) ? TOO_DEEP_MESSAGE : NOT_UNICODE_MESSAGE, fields);
}

/**
 * A JSON body (an empty one is `{}`), its text checked: BodyTooLarge past the form limit, Invalid
 * when it is not JSON, carries broken text or nests past MAX_BODY_DEPTH.
 */
export async function readJson(request: RequestHead, limit: number = BODY_LIMITS.form): Promise<unknown> {
  const text = await readText(request, limit);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new Invalid(NOT_JSON_MESSAGE);
  }
  refuseUnreadable(body);
  return body;
}

/**
 * A page's form post (urlencoded or multipart) for an action: a thrown 413 page past the form
 * limit, a 400 page when it is no form or carries broken text. Conform and the doors read the
 * FormData it returns as they read request.formData()'s.
 */
export async function readForm(request: Request): Promise<FormData> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await readBody(request, BODY_LIMITS.form);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new Response(TOO_LARGE_MESSAGE, { status: 413 });
    if (error instanceof BodyIncomplete) throw new Response(INCOMPLETE_MESSAGE, { status: 400 });
    throw error;
  }
  let form: FormData;
  try {
    const type = request.headers.get("Content-Type") ?? "application/x-www-form-urlencoded";
    form = await new Response(bytes, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw new Response(NOT_A_FORM_MESSAGE, { status: 400 });
  }
  for (const [name, value] of form) {
    if (hasBrokenCharacter(name) || (typeof value === "string" && hasBrokenCharacter(value)))
      throw new Response(NOT_UNICODE_MESSAGE, { status: 400 });
  }
  return form;
}

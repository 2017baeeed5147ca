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
const { notUnicode: NOT_UNICODE_MESSAGE, notJson: NOT_JSON_MESSAGE, notAForm: NOT_A_FORM_MESSAGE } = REQUEST_BODY_MESSAGES;

/** A body over its limit. Doors answer 413 with TOO_LARGE_MESSAGE. */
export class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(TOO_LARGE_MESSAGE);
    this.name = "BodyTooLarge";
  }
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
      const { done, value } = await reader.read();
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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string holds half of a UTF-16 pair alone: not text, and stored as U+FFFD if kept. */
export const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);

/**
 * The fields of a parsed body (JSON from `\ud800` escapes) whose text is not valid Unicode, by
 * dotted path as zod names them ("" for the body itself); keys count as their object's text.
 */
export function brokenTextFields(value: unknown, path: string[] = [], found: FieldErrors = {}): FieldErrors {
  if (typeof value === "string") {
    if (hasLoneSurrogate(value)) found[path.join(".")] = [NOT_UNICODE_MESSAGE];
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => brokenTextFields(item, [...path, String(index)], found));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (hasLoneSurrogate(key)) found[path.join(".")] = [NOT_UNICODE_MESSAGE];
      else brokenTextFields(item, [...path, key], found);
    }
  }
  return found;
}

/** Invalid (400, with a field error each) when any text in the parsed value is not valid Unicode. */
export function refuseBrokenText(value: unknown): void {
  const fields = brokenTextFields(value);
  if (Object.keys(fields).length > 0) throw new Invalid(NOT_UNICODE_MESSAGE, fields);
}

/**
 * A JSON body (an empty one is `{}`), its text checked: BodyTooLarge past the form limit, Invalid
 * when it is not JSON or carries broken text.
 */
export async function readJson(request: RequestHead, limit: number = BODY_LIMITS.form): Promise<unknown> {
  const text = await readText(request, limit);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new Invalid(NOT_JSON_MESSAGE);
  }
  refuseBrokenText(body);
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
    if (hasLoneSurrogate(name) || (typeof value === "string" && hasLoneSurrogate(value)))
      throw new Response(NOT_UNICODE_MESSAGE, { status: 400 });
  }
  return form;
}

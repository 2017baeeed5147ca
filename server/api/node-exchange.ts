import type { IncomingMessage, ServerResponse } from "node:http";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import { compressionFor } from "#server/http/cache/negotiation";
import { compressOnce } from "#server/http/cache/compressed-copy";
import { BODY_LIMITS, requestWithBodyRead, withBodyRead } from "#server/http/requests/request-body";
import { NodeRequestHead, type RequestHead } from "#server/http/requests/request-head";
import { JsonAnswer } from "#server/http/json-answer";

/**
 * Every header of node's request, repeated ones included, as the name and value pairs a Request
 * takes: it checks and copies them once (a Headers object made first was checked twice).
 */
function headersOf(req: IncomingMessage): [string, string][] {
  const headers: [string, string][] = [];
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.push([key, one]);
    else if (value) headers.push([key, value]);
  }
  return headers;
}

/**
 * The body's bytes, read by node's events: the async iterator over the request costs several
 * promises and a stream adapter per chunk, for a body that arrives in one. node reads no more
 * than the request declared. Null when the caller hung up before all of it came.
 */
function bodyOf(req: IncomingMessage): Promise<Buffer<ArrayBuffer> | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    // After "end" these change nothing: the promise is settled.
    req.once("close", () => resolve(null));
    req.once("error", () => resolve(null));
  });
}

/**
 * A node request as the fetch Request the API table reads, as @remix-run/express builds one: every
 * header, the body streamed untouched (webhooks read it raw, uploads count its bytes), and a signal
 * that aborts the handler's work when the caller hangs up.
 */
export function fetchRequestOf(req: IncomingMessage, res: ServerResponse, url: string): Request {
  const headers = headersOf(req);
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const method = req.method ?? "GET";
  const init: RequestInit & { duplex?: "half" } = { method, headers, signal: controller.signal };
  if (method !== "GET" && method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

/**
 * A GET as a fetch Request with every header and no body or signal, for a door whose handlers read
 * neither (the memo door, decision 0060): undici's AbortSignal and its listener are a good part of
 * what making a Request costs.
 */
export function bodilessRequestOf(req: IncomingMessage, url: string): Request {
  return new Request(url, { method: req.method, headers: headersOf(req) });
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The declared length of a small JSON body (what the rush posts: the bag, the rates, Process Order,
 * the payment), or null for anything else: no length, over the form limit, another type.
 */
function smallJsonLength(req: IncomingMessage): number | null {
  const declared = req.headers["content-length"];
  if (declared === undefined || !/^\d{1,6}$/.test(declared) || !JSON_TYPE.test(req.headers["content-type"] ?? "")) return null;
  const length = Number(declared);
  return length <= BODY_LIMITS.form ? length : null;
}

/**
 * As fetchRequestOf, for an API write. A small JSON body is read from node's request first
 * (request-body.ts hands the bytes to every reader), and the API gets a `NodeRequestHead` over
 * node's own headers: undici's Request, its Headers, signal and body stream cost a good part of
 * what the door spent before the API table (decision 0070). A reader that needs a fetch Request
 * (tRPC) gets one then, bodiless, with the same bytes in hand. node reads no more than the declared
 * length. Such a request has no signal: the API's handlers read none, and with the body in hand a
 * write is done whether or not the caller waits. Any other body streams in a Request as before.
 * Null when the caller hung up before the body came: there is nothing to do and nobody to answer.
 */
export async function apiWriteRequestOf(req: IncomingMessage, res: ServerResponse, url: string): Promise<RequestHead | null> {
  const length = smallJsonLength(req);
  if (length === null) return fetchRequestOf(req, res, url);
  const body = await bodyOf(req);
  if (!body) return null;
  const bytes = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  const method = req.method ?? "POST";
  // Most writes read only the head; a Request is made for one that asks (decision 0070).
  const head = new NodeRequestHead(url, method, req.headers, () => requestWithBodyRead(url, { method, headers: headersOf(req) }, bytes));
  return withBodyRead(head, bytes);
}

// compression()'s threshold: a smaller answer costs more CPU to compress than it saves on the wire.
const COMPRESS_FROM_BYTES = 1024;

/**
 * The Content-Type as Express's res.append wrote it, which these answers always went through:
 * text and JSON say their charset (`Response.json` leaves it out).
 */
function withCharset(type: string): string {
  return /;\s*charset=/i.test(type) || !/^(text\/|application\/(javascript|json)\b)/i.test(type) ? type : `${type}; charset=utf-8`;
}

const isJson = (response: Response) => /\bjson\b/i.test(response.headers.get("Content-Type") ?? "");

/**
 * Writes a fetch Response on node's answer. JSON answers are small and whole: sent with their
 * length. `compress` (for doors with no compression() in front) compresses a JSON answer of 1 kB
 * or more as the browser accepts, as compression() would; other bodies stream as they are.
 */
export async function sendFetchResponse(req: IncomingMessage, res: ServerResponse, response: Response, compress = false): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [key, value] of response.headers) res.appendHeader(key, key === "content-type" ? withCharset(value) : value);
  if (!response.body) return void res.end();
  if (!isJson(response)) return writeReadableStreamToWritable(response.body, res);
  sendJsonBody(req, res, Buffer.from(await response.arrayBuffer()), compress);
}

/** A JsonAnswer (the API's own) or a fetch Response, as sendFetchResponse sends it. */
export async function sendAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  answer: Response | JsonAnswer,
  compress = false,
): Promise<void> {
  if (!(answer instanceof JsonAnswer)) return sendFetchResponse(req, res, answer, compress);
  res.statusCode = answer.status;
  if (!answer.has("content-type")) res.appendHeader("content-type", "application/json; charset=utf-8");
  for (const [key, value] of answer.headers) res.appendHeader(key, key === "content-type" ? withCharset(value) : value);
  sendJsonBody(req, res, Buffer.from(answer.body), compress);
}

function sendJsonBody(req: IncomingMessage, res: ServerResponse, body: Buffer, compress: boolean): void {
  if (compress) {
    res.appendHeader("Vary", "Accept-Encoding");
    const coding =
      body.length >= COMPRESS_FROM_BYTES && !res.hasHeader("Content-Encoding") ? compressionFor(req.headers["accept-encoding"]) : null;
    if (coding) {
      body = compressOnce({ identity: body }, coding);
      res.setHeader("Content-Encoding", coding);
    }
  }
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { compressOnce, type CompressedCopy, type Encoding } from "./compressed-copy";
import { compressionFor, notModified as unchanged } from "./negotiation";
import { everyFew } from "./version-reader";
import { logError } from "#server/observability/log";
import { routePattern } from "#server/observability/route-pattern";

type Next = () => void;

export interface AnswerCacheOptions {
  /**
   * The exact paths kept (no query string): answers that are the same for every caller, whatever
   * their cookies or Host header (one copy per path is kept for all).
   */
  paths: string[];
  /** The answer as the API gives it, asked for nobody in particular; only a 200 is kept. */
  render: (path: string) => Promise<Response>;
  /** The database's page version (decisions 0014, 0027): a change drops every kept answer. */
  readVersion: () => Promise<number | string>;
  ttlMs?: number;
  versionEveryMs?: number;
  now?: () => number;
}

interface Kept extends CompressedCopy {
  version: number | string;
  storedAt: number;
  etag: string;
  contentType: string;
  heads: Map<string, string[]>;
}

interface Passed {
  pass: true;
  version: number | string;
  storedAt: number;
}

// Express's res.set() names the charset of text and JSON types the API leaves bare; the cached
// answer says the same as the uncached one.
const withCharset = (type: string) =>
  /;\s*charset=/i.test(type) || !/^(text\/|application\/(javascript|json)\b)/i.test(type) ? type : `${type}; charset=utf-8`;

// As compression() decides for the rest of the API: smaller bodies go as they are.
const COMPRESS_FROM_BYTES = 1024;

/**
 * Public GET answers of the API (the product list) kept in memory as bytes, their br and gzip
 * copies made once, under the pages' freshness rule: never older than `ttlMs`, and dropped at once
 * when the page version moves (every product, image or setting write moves it). Answered ahead of
 * Express with an ETag; the body is the API's own, byte for byte.
 */
export function answerCache(options: AnswerCacheOptions) {
  const { paths, render, ttlMs = 1000, versionEveryMs = 250, now = Date.now } = options;
  const watched = new Set(paths);
  // A render that could not be kept (not a 200) is remembered as such for as long, so the API
  // answers those requests itself instead of being asked twice for each.
  const kept = new Map<string, Kept | Passed>();
  const rendering = new Map<string, Promise<Kept | null>>();
  const currentVersion = everyFew(options.readVersion, versionEveryMs, now);

  async function fetchAnswer(path: string, version: number | string): Promise<Kept | null> {
    const response = await render(path);
    const body = Buffer.from(await response.arrayBuffer());
    const contentType = response.headers.get("content-type");
    if (response.status !== 200 || !contentType || response.headers.has("set-cookie")) {
      kept.set(path, { pass: true, version, storedAt: now() });
      return null;
    }
    const etag = `W/"${crypto.createHash("sha1").update(body).digest("base64url").slice(0, 16)}"`;
    const before = kept.get(path);
    // The same bytes again: their compressed copies and header arrays still hold.
    const answer: Kept =
      before && !("pass" in before) && before.etag === etag
        ? Object.assign(before, { version, storedAt: now() })
        : { identity: body, version, storedAt: now(), etag, contentType: withCharset(contentType), heads: new Map() };
    kept.set(path, answer);
    return answer;
  }

  function fresh(path: string): Kept | null | Promise<Kept | null> {
    const version = currentVersion();
    return version instanceof Promise ? version.then((read) => freshAt(path, read)) : freshAt(path, version);
  }

  function freshAt(path: string, version: number | string): Kept | null | Promise<Kept | null> {
    const answer = kept.get(path);
    if (answer && answer.version === version && now() - answer.storedAt < ttlMs) return "pass" in answer ? null : answer;
    let pending = rendering.get(path);
    if (!pending) {
      pending = fetchAnswer(path, version).finally(() => rendering.delete(path));
      rendering.set(path, pending);
    }
    return pending;
  }

  function headsFor(answer: Kept, encoding: Encoding | null, body: Buffer | null): string[] {
    const key = `${encoding ?? ""}${body ? "" : "304"}`;
    let heads = answer.heads.get(key);
    if (!heads) {
      heads = ["Content-Type", answer.contentType, "Vary", "Accept-Encoding", "ETag", answer.etag];
      if (body && encoding) heads.push("Content-Encoding", encoding);
      if (body) heads.push("Content-Length", String(body.length));
      answer.heads.set(key, heads);
    }
    return heads;
  }

  function send(req: IncomingMessage, res: ServerResponse, next: Next, answer: Kept | null) {
    if (!answer) return next();
    const notModified = unchanged(req.headers["if-none-match"], answer.etag);
    const encoding = notModified || answer.identity.length < COMPRESS_FROM_BYTES ? null : compressionFor(req.headers["accept-encoding"]);
    const body = notModified ? null : encoding ? compressOnce(answer, encoding) : answer.identity;
    res.writeHead(notModified ? 304 : 200, headsFor(answer, encoding, body));
    res.end(req.method === "HEAD" || !body ? undefined : body);
  }

  return function serveAnswerCache(req: IncomingMessage, res: ServerResponse, next: Next): void {
    if ((req.method !== "GET" && req.method !== "HEAD") || !watched.has(req.url ?? "")) return next();
    const failed = (error: unknown) => {
      // A shortcut only: when it fails, the API answers as it would without it.
      logError(`The answer cache failed for ${routePattern(req.url)}`, error);
      if (!res.headersSent) next();
    };
    try {
      const answer = fresh(req.url!);
      if (answer instanceof Promise) return void answer.then((known) => send(req, res, next, known), failed);
      send(req, res, next, answer);
    } catch (error) {
      failed(error);
    }
  };
}

import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NOBODY, type Visitor } from "#server/contracts/visitor";
import { brotliBytes } from "./brotli-splice";
import { ByteLru } from "./byte-lru";
import { bodyWithNonceWhenReady, oneOffBody, type NonceBody } from "./nonce-body";
import { canonicalPath, ownOrigin, type PageQuery } from "./page-key";
import { freshNonce, NONCE_STANDIN, nonceCopy, withNonce, type NonceCopy } from "./nonce-splice";
import { stripInternalHeaders } from "#server/http/requests/internal-headers";
import { everyFew } from "./version-reader";
import { logField } from "#server/services/security/log-field";
import { PERSONAL_PAGE, SHARED_PAGE, sharedCacheMayKeep } from "./cache-control";
import { notModified } from "./negotiation";
import { meter } from "#server/observability/meter";
import { logError } from "#server/observability/log";
import { routePattern } from "#server/observability/route-pattern";

export type { PageQuery };

type Next = (error?: unknown) => void;
type NodeRequest = IncomingMessage & { originalUrl?: string; protocol?: string };
type VisitorRead = { visitor: Visitor; setCookies: string[] };
/** A page's version (decisions 0014, 0027): the read gives one for every page, or each page's own by its path. */
type Version = number | string;
type VersionRead = Version | ((pathname: string) => Version);

/**
 * What the cache may hold per process, pages and filled copies with their compressed forms
 * together (decision 0039): about 400 filled copies of a 60 kB page with their brotli and gzip
 * forms. Least recently used out first.
 */
export const PAGE_CACHE_BUDGET_BYTES = 32 * 1024 * 1024;

export interface PageCacheOptions {
  /** The pages served from the cache, by path. */
  match: (pathname: string) => boolean;
  /** The query parameters a matched page reads; none when absent, so any query is the same page. */
  queryOf?: (pathname: string) => PageQuery | undefined;
  /**
   * The query parameters that make a matched page one visitor's own (a form filled from its link):
   * a request where any of them reads as present is not served from, nor kept in, the cache but
   * handed on to be rendered for itself alone, so no visitor's query reaches another's copy and a
   * stranger's values make no copies (decision 0051). One that reads as absent is the cached page.
   */
  personalQueryOf?: (pathname: string) => PageQuery | undefined;
  /**
   * The store's own origin (PUBLIC_URL), which every page is rendered for. Without it, the first
   * well-formed Host a request names, over the request's scheme (http or https): never a host
   * each request chooses, or a stranger could make one copy per Host header.
   */
  origin?: string | null;
  /** Renders a page for nobody (the request carries no cookie; `render` marks it a template render: page-template.ts). */
  render: (request: Request) => Promise<Response>;
  /** The database's page version(s): a page whose version changed is rendered again. */
  readVersion: () => Promise<VersionRead>;
  /** The visitor's own parts, from their cookies, and the cookies to send back. */
  readVisitor: (request: Request) => Promise<VisitorRead>;
  /**
   * The visitor from the raw Cookie header alone, synchronously when it can (a bag cookie whose
   * signature is known), or null to go through `readVisitor`.
   */
  quickVisitor?: (cookieHeader: string) => VisitorRead | Promise<VisitorRead> | null;
  /** The scheme the browser used (the page is rendered for that URL); Express's req.protocol wins. */
  protocolOf?: (req: IncomingMessage) => string;
  /** Each hole's HTML for one visitor. */
  fragments: (visitor: Visitor) => Record<string, string>;
  /** How long a rendered page may be served; stock shown is never older. */
  ttlMs?: number;
  /** How often the version is read from the database, at most. */
  versionEveryMs?: number;
  now?: () => number;
  /** Bytes kept at most, pages and filled copies together: `PAGE_CACHE_BUDGET_BYTES` unless said. */
  budgetBytes?: number;
}

/** What the cache holds now (for tests and the curious). */
export interface PageCacheStats {
  bytes: number;
  budgetBytes: number;
  pages: number;
  copies: number;
}

interface Variant {
  /** The visitor parts it was filled for (JSON), its key in its page's `variants`. */
  key: string;
  page: Template;
  etag: string;
  /** The filled page with the stand-in nonce; each answer writes its own (decision 0028). */
  copy: NonceCopy;
  /** The answer's headers, flat for writeHead, per encoding and shared/personal (built once). */
  heads: Map<string, string[]>;
  /** Held under the budget; a copy that is not (a flash, a page that did not fit) is sent once. */
  stored: boolean;
  bytes: number;
  gzipCounted: boolean;
}

interface Template {
  pass: false;
  /** The page cut at its holes: text, hole name, text, hole name, …, text. */
  parts: string[];
  headers: [string, string][];
  /** The template's Content-Security-Policy cut at its stand-in nonce, or null if it has none. */
  policy: string[] | null;
  hash: string;
  variants: Map<string, Variant>;
  /** Still in the cache: its filled copies may be kept. */
  kept: boolean;
}

interface Entry {
  key: string;
  page: Template | { pass: true };
  version: Version;
  storedAt: number;
  bytes: number;
}

// What a kept item costs besides its bytes of text: the objects, maps and header arrays around it.
const ENTRY_OVERHEAD = 512;
const VARIANT_OVERHEAD = 1024;
// The gzip form's CRC table for the nonce (32 words) besides its body.
const GZIP_OVERHEAD = 128;

const variantBytes = (key: string, copy: NonceCopy) =>
  VARIANT_OVERHEAD + key.length + copy.identity.length + (copy.gzip ? copy.gzip.body.length + GZIP_OVERHEAD : 0) + brotliBytes(copy);

const HOLE = /<span data-hole="([a-z-]+)" style="display:contents"><\/span>/g;
// Set again for each answer, or meaningless for a copy.
const NOT_KEPT = new Set([
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "vary",
  "date",
  "connection",
  "keep-alive",
  "set-cookie",
  "cache-control",
  "etag",
  "content-security-policy",
]);

const digest = (text: string) => crypto.createHash("sha1").update(text).digest("base64url").slice(0, 16);

function split(html: string): string[] {
  const parts: string[] = [];
  let last = 0;
  for (const match of html.matchAll(HOLE)) {
    parts.push(html.slice(last, match.index + match[0].length - "</span>".length), match[1]!);
    last = match.index + match[0].length - "</span>".length;
  }
  parts.push(html.slice(last));
  return parts;
}

function fill(parts: string[], fragments: Record<string, string>): string {
  let html = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) html += (fragments[parts[i]!] ?? "") + parts[i + 1]!;
  return html;
}

/** Whether any of the page's personal parameters reads as present in this query (never throws). */
function readsPersonal(search: string, reads: PageQuery | undefined): boolean {
  if (!reads) return false;
  const given = new URLSearchParams(search);
  for (const [name, canonical] of Object.entries(reads)) {
    const value = given.get(name);
    if (value !== null && canonical(value) !== null) return true;
  }
  return false;
}

/**
 * One page cache for everyone, with personal holes (decision 0014). Each matched page is rendered
 * for nobody at most once per `ttlMs` and whenever the database's page version moves, kept in
 * memory cut at its holes, and filled per request from the visitor's own cookies: the bag, the
 * admin link, a flash and the JSON the browser's first render reads. Filled copies are kept per
 * distinct visitor parts, compressed once; a copy carrying a flash is sent once and never kept.
 * Pages are keyed on the store's own origin, their path and the query parameters they read, and
 * everything is held least recently used first out under one byte budget (decision 0039).
 * Cookieless answers may be kept by a CDN for a second; personal ones are private.
 */
export function pageCache(options: PageCacheOptions) {
  const {
    match,
    queryOf,
    render,
    readVersion,
    readVisitor,
    fragments,
    ttlMs = 1000,
    versionEveryMs = 250,
    now = Date.now,
    budgetBytes = PAGE_CACHE_BUDGET_BYTES,
    protocolOf = () => "http",
  } = options;
  const pages = new Map<string, Entry>();
  const rendering = new Map<string, Promise<Entry | null>>();
  const kept = new ByteLru<Entry | Variant>(budgetBytes, dropped);
  const currentVersion = everyFew(readVersion, versionEveryMs, now);

  const originOf = ownOrigin(options.origin ?? null, protocolOf);

  function dropped(item: Entry | Variant) {
    // Only the budget's evictions come here (a page replaced by its next render is not one).
    if (!("copy" in item)) meter().pageCache("eviction");
    if ("copy" in item) {
      if (item.page.variants.get(item.key) === item) item.page.variants.delete(item.key);
      return;
    }
    if (pages.get(item.key) === item) pages.delete(item.key);
    if (!item.page.pass) {
      // Its filled copies go with it; answers under way hold their own references.
      item.page.kept = false;
      for (const variant of item.page.variants.values()) kept.remove(variant);
      item.page.variants.clear();
    }
  }

  function keep(key: string, entry: Entry) {
    const current = pages.get(key);
    if (current) {
      kept.remove(current);
      dropped(current);
    }
    pages.set(key, entry);
    // Held as the most recently used; over the budget, the least recently used go (this one last).
    kept.add(entry);
  }

  async function renderTemplate(key: string, atVersion: Version): Promise<Entry | null> {
    const headers = new Headers({ Accept: "text/html" });
    headers.set("Host", new URL(key).host);
    // Its age counts from before the render read the database, however long the render takes.
    const renderedAt = now();
    const response = await render(new Request(key, { headers }));
    const body = await response.text();
    const storable =
      response.status === 200 &&
      !response.headers.has("set-cookie") &&
      /^text\/html/.test(response.headers.get("content-type") ?? "") &&
      sharedCacheMayKeep(response.headers.get("cache-control"));
    if (!storable) {
      const entry: Entry = { key, page: { pass: true }, version: atVersion, storedAt: renderedAt, bytes: ENTRY_OVERHEAD + key.length };
      keep(key, entry);
      return entry;
    }
    const hash = digest(body);
    const current = pages.get(key);
    if (current && !current.page.pass && current.page.hash === hash) {
      // Rendered again but unchanged: the filled copies (and their ETags) still hold.
      current.version = atVersion;
      current.storedAt = renderedAt;
      kept.touch(current);
      return current;
    }
    const page: Template = {
      pass: false,
      parts: split(body),
      headers: [...response.headers].filter(([name]) => !NOT_KEPT.has(name)),
      policy: response.headers.get("content-security-policy")?.split(NONCE_STANDIN) ?? null,
      hash,
      variants: new Map(),
      kept: true,
    };
    const entry: Entry = {
      key,
      page,
      version: atVersion,
      storedAt: renderedAt,
      bytes: ENTRY_OVERHEAD + key.length + Buffer.byteLength(body),
    };
    keep(key, entry);
    return entry;
  }

  function rerender(key: string, atVersion: Version): Promise<Entry | null> {
    let pending = rendering.get(key);
    if (!pending) {
      pending = renderTemplate(key, atVersion)
        .catch((error: unknown) => {
          logError(`The page cache could not render ${logField(key)}`, error);
          return null;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  }

  // A fresh page is answered synchronously; only a version read or a render is waited for.
  function template(key: string, pathname: string): Entry | null | Promise<Entry | null> {
    const read = currentVersion();
    const at = (versions: VersionRead) => atTemplate(key, typeof versions === "function" ? versions(pathname) : versions);
    return read instanceof Promise ? read.then(at) : at(read);
  }

  function atTemplate(key: string, atVersion: Version): Entry | null | Promise<Entry | null> {
    const entry = pages.get(key);
    if (entry && entry.version === atVersion) {
      const age = now() - entry.storedAt;
      if (age < ttlMs) {
        kept.touch(entry);
        // A page in use is rendered again in its second half-second while this copy is still
        // answered, so at a second's end its visitors find the next copy ready instead of all
        // waiting on one render (under a rush that render took 0.3–0.7 s, decision 0030).
        if (age >= ttlMs / 2 && !rendering.has(key)) void rerender(key, atVersion);
        meter().pageCache("hit");
        return entry;
      }
    }
    meter().pageCache("miss");
    return rerender(key, atVersion);
  }

  function variantFor(page: Template, visitor: Visitor): Variant {
    const key = JSON.stringify(visitor);
    let variant = page.variants.get(key);
    if (variant) {
      kept.touch(variant);
      return variant;
    }
    const copy = nonceCopy(Buffer.from(fill(page.parts, fragments(visitor))));
    variant = { key, page, etag: `W/"${page.hash}-${digest(key)}"`, copy, heads: new Map(), stored: false, bytes: 0, gzipCounted: false };
    variant.bytes = variantBytes(key, copy);
    // A flash is one visitor's, shown once: its copy would only push shared ones out.
    if (page.kept && !visitor.toast) {
      page.variants.set(key, variant);
      kept.add(variant);
      variant.stored = kept.has(variant);
    }
    return variant;
  }

  /** A kept copy's compressed forms are made as browsers ask for them: the budget counts them then. */
  function recount(variant: Variant) {
    variant.gzipCounted = variant.copy.gzip !== undefined;
    kept.resize(variant, variantBytes(variant.key, variant.copy));
  }

  // The headers of one kind of answer, flat for writeHead, built once per copy.
  function headsFor(page: Template, variant: Variant, personal: boolean, encoding: "br" | "gzip" | null, body: Buffer | null): string[] {
    const key = `${personal ? "p" : "s"}${encoding ?? ""}${body ? "" : "304"}`;
    let heads = variant.heads.get(key);
    if (!heads) {
      heads = page.headers.flat();
      heads.push("Vary", "Accept-Encoding, Cookie");
      heads.push("Cache-Control", personal ? PERSONAL_PAGE : SHARED_PAGE);
      heads.push("ETag", variant.etag, "X-Page-Cache", "HIT");
      if (body) {
        if (encoding) heads.push("Content-Encoding", encoding);
        heads.push("Content-Length", String(body.length));
      }
      variant.heads.set(key, heads);
    }
    return heads;
  }

  function answer(req: NodeRequest, res: ServerResponse, page: Template, read: VisitorRead, personal: boolean) {
    const variant = variantFor(page, read.visitor);
    const unchanged = notModified(req.headers["if-none-match"], variant.etag);
    if (unchanged) return send(req, res, page, variant, read, personal, "", { body: null, encoding: null });
    const nonce = freshNonce();
    // Brotli or gzip kept compressed around the nonces (decisions 0028, 0032); a copy sent once is
    // compressed once with its nonce in.
    const acceptEncoding = req.headers["accept-encoding"];
    const encoded = variant.stored
      ? bodyWithNonceWhenReady(variant.copy, nonce, acceptEncoding)
      : oneOffBody(variant.copy, nonce, acceptEncoding);
    if (encoded instanceof Promise) {
      // A new copy's brotli form (or a one-off's compression) is a few milliseconds away on the thread pool.
      return void encoded
        .then((ready: NonceBody) => {
          if (variant.stored) recount(variant);
          send(req, res, page, variant, read, personal, nonce, ready);
        })
        .catch((error: unknown) => {
          // Never an unhandled rejection (it would end the process): the page goes out uncompressed.
          logError(`The page cache could not encode ${routePattern(req.url)}`, error);
          if (!res.headersSent)
            send(req, res, page, variant, read, personal, nonce, { body: withNonce(variant.copy, nonce), encoding: null });
        });
    }
    if (encoded.encoding === "gzip" && !variant.gzipCounted) recount(variant);
    send(req, res, page, variant, read, personal, nonce, encoded);
  }

  function send(
    req: NodeRequest,
    res: ServerResponse,
    page: Template,
    variant: Variant,
    read: VisitorRead,
    personal: boolean,
    nonce: string,
    { body, encoding }: { body: Buffer | null; encoding: "br" | "gzip" | null },
  ) {
    const heads: (string | string[])[] = [...headsFor(page, variant, personal, encoding, body)];
    // A 304 carries no policy: the browser keeps the one that came with the nonces of its copy.
    if (body && page.policy) heads.push("Content-Security-Policy", page.policy.join(nonce));
    if (read.setCookies.length) heads.push("Set-Cookie", read.setCookies);
    res.writeHead(body ? 200 : 304, heads);
    res.end(req.method === "HEAD" || !body ? undefined : body);
  }

  function withVisitor(req: NodeRequest, res: ServerResponse, next: Next, entry: Entry | null, url: string) {
    if (!entry || entry.page.pass) return next();
    const page = entry.page;
    const cookie = req.headers.cookie;
    if (!cookie) return answer(req, res, page, { visitor: NOBODY, setCookies: [] }, false);
    let read = options.quickVisitor?.(cookie) ?? null;
    if (!read) {
      const headers = new Headers({ Cookie: cookie });
      const proto = req.headers["x-forwarded-proto"];
      if (typeof proto === "string") headers.set("X-Forwarded-Proto", proto);
      read = readVisitor(new Request(url, { headers }));
    }
    if (read instanceof Promise) {
      return void read.then((known) => answer(req, res, page, known, true)).catch((error: unknown) => failed(res, next, url, error));
    }
    answer(req, res, page, read, true);
  }

  function failed(res: ServerResponse, next: Next, url: string, error: unknown) {
    // The cache is a shortcut: when it fails, the page is rendered as it would be without it.
    logError(`The page cache failed for ${routePattern(url)}`, error);
    if (!res.headersSent) next();
  }

  /**
   * Answers a cached page, or calls `next` for anything else. Works on node:http's own request
   * (server.js calls it before Express sees the request) as well as inside Express.
   */
  function servePageCache(req: NodeRequest, res: ServerResponse, next: Next): void {
    // Only the cache itself renders a template; a header claiming one is taken off (as server.js does first).
    stripInternalHeaders(req);
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const path = req.originalUrl ?? req.url ?? "/";
    const query = path.indexOf("?");
    const pathname = query === -1 ? path : path.slice(0, query);
    if (!match(pathname)) return next();
    if (query !== -1 && readsPersonal(path.slice(query + 1), options.personalQueryOf?.(pathname))) return next();
    const url = originOf(req) + canonicalPath(pathname, path, query, query === -1 ? undefined : queryOf?.(pathname));
    try {
      const entry = template(url, pathname);
      if (entry instanceof Promise) {
        return void entry.then((known) => withVisitor(req, res, next, known, url)).catch((error: unknown) => failed(res, next, url, error));
      }
      withVisitor(req, res, next, entry, url);
    } catch (error) {
      failed(res, next, url, error);
    }
  }

  const stats = (): PageCacheStats => {
    let copies = 0;
    for (const entry of pages.values()) if (!entry.page.pass) copies += entry.page.variants.size;
    return { bytes: kept.bytes, budgetBytes, pages: pages.size, copies };
  };
  return Object.assign(servePageCache, { stats });
}

import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NOBODY, type Visitor } from "../contracts/visitor";
import { bodyWithNonceWhenReady } from "./nonce-body";
import { freshNonce, NONCE_STANDIN, nonceCopy, withNonce, type NonceCopy } from "./nonce-splice";
import { stripInternalHeaders } from "./internal-headers";
import { everyFew } from "./version-reader";
import { logField } from "../services/log-field";

type Next = (error?: unknown) => void;
type NodeRequest = IncomingMessage & { originalUrl?: string; protocol?: string };
type VisitorRead = { visitor: Visitor; setCookies: string[] };
/** A page's version (decisions 0014, 0027): the read gives one for every page, or each page's own by its path. */
type Version = number | string;
type VersionRead = Version | ((pathname: string) => Version);

export interface PageCacheOptions {
  /** The pages served from the cache, by path. */
  match: (pathname: string) => boolean;
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
  /** Filled copies kept per page (one per distinct bag count, user, flash). */
  maxVariants?: number;
  maxPages?: number;
}

interface Variant {
  etag: string;
  /** The filled page with the stand-in nonce; each answer writes its own (decision 0028). */
  copy: NonceCopy;
  /** The answer's headers, flat for writeHead, per encoding and shared/personal (built once). */
  heads: Map<string, string[]>;
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
}

interface Entry {
  page: Template | { pass: true };
  version: Version;
  storedAt: number;
}

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
export const SHARED_CACHE_CONTROL = "public, s-maxage=1, stale-while-revalidate=5";
export const PERSONAL_CACHE_CONTROL = "private, no-cache";

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

/**
 * One page cache for everyone, with personal holes (decision 0014). Each matched page is rendered
 * for nobody at most once per `ttlMs` and whenever the database's page version moves, kept in
 * memory cut at its holes, and filled per request from the visitor's own cookies: the bag, the
 * admin link, a flash and the JSON the browser's first render reads. Filled copies are kept per
 * distinct visitor parts, compressed once. Cookieless answers may be kept by a CDN for a second;
 * personal ones are private.
 */
export function pageCache(options: PageCacheOptions) {
  const {
    match,
    render,
    readVersion,
    readVisitor,
    fragments,
    ttlMs = 1000,
    versionEveryMs = 250,
    now = Date.now,
    maxVariants = 256,
    maxPages = 200,
    protocolOf = () => "http",
  } = options;
  const pages = new Map<string, Entry>();
  const rendering = new Map<string, Promise<Entry | null>>();
  const currentVersion = everyFew(readVersion, versionEveryMs, now);

  async function renderTemplate(
    key: string,
    url: string,
    req: NodeRequest,
    atVersion: Version,
    previous: Entry | undefined,
  ): Promise<Entry | null> {
    const headers = new Headers({ Accept: "text/html" });
    if (req.headers.host) headers.set("Host", req.headers.host);
    // Its age counts from before the render read the database, however long the render takes.
    const renderedAt = now();
    const response = await render(new Request(url, { headers }));
    const body = await response.text();
    const cacheControl = response.headers.get("cache-control") ?? "";
    const storable =
      response.status === 200 &&
      !response.headers.has("set-cookie") &&
      /^text\/html/.test(response.headers.get("content-type") ?? "") &&
      !/private|no-store/i.test(cacheControl);
    let entry: Entry;
    if (!storable) {
      entry = { page: { pass: true }, version: atVersion, storedAt: renderedAt };
    } else {
      const hash = digest(body);
      const before = previous?.page.pass === false ? previous.page : null;
      // Rendered again but unchanged: the filled copies (and their ETags) still hold.
      const page: Template =
        before && before.hash === hash
          ? before
          : {
              pass: false,
              parts: split(body),
              headers: [...response.headers].filter(([name]) => !NOT_KEPT.has(name)),
              policy: response.headers.get("content-security-policy")?.split(NONCE_STANDIN) ?? null,
              hash,
              variants: new Map(),
            };
      entry = { page, version: atVersion, storedAt: renderedAt };
    }
    if (pages.size >= maxPages && !pages.has(key)) pages.delete(pages.keys().next().value!);
    pages.set(key, entry);
    return entry;
  }

  function rerender(key: string, req: NodeRequest, atVersion: Version, entry: Entry | undefined): Promise<Entry | null> {
    let pending = rendering.get(key);
    if (!pending) {
      pending = renderTemplate(key, key, req, atVersion, entry)
        .catch((error: unknown) => {
          console.error("The page cache could not render", logField(key), error);
          return null;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  }

  // A fresh page is answered synchronously; only a version read or a render is waited for.
  function template(key: string, req: NodeRequest, pathname: string): Entry | null | Promise<Entry | null> {
    const read = currentVersion();
    const at = (versions: VersionRead) => atTemplate(key, req, typeof versions === "function" ? versions(pathname) : versions);
    return read instanceof Promise ? read.then(at) : at(read);
  }

  function atTemplate(key: string, req: NodeRequest, atVersion: Version): Entry | null | Promise<Entry | null> {
    const entry = pages.get(key);
    if (entry && entry.version === atVersion) {
      const age = now() - entry.storedAt;
      if (age < ttlMs) {
        // A page in use is rendered again in its second half-second while this copy is still
        // answered, so at a second's end its visitors find the next copy ready instead of all
        // waiting on one render (under a rush that render took 0.3–0.7 s, decision 0030).
        if (age >= ttlMs / 2 && !rendering.has(key)) void rerender(key, req, atVersion, entry);
        return entry;
      }
    }
    return rerender(key, req, atVersion, entry);
  }

  function variantFor(page: Template, visitor: Visitor): Variant {
    const key = JSON.stringify(visitor);
    let variant = page.variants.get(key);
    if (variant) {
      // Most recently used last, so the oldest goes first when full.
      page.variants.delete(key);
      page.variants.set(key, variant);
      return variant;
    }
    variant = {
      etag: `W/"${page.hash}-${digest(key)}"`,
      copy: nonceCopy(Buffer.from(fill(page.parts, fragments(visitor)))),
      heads: new Map(),
    };
    if (page.variants.size >= maxVariants) page.variants.delete(page.variants.keys().next().value!);
    page.variants.set(key, variant);
    return variant;
  }

  // The headers of one kind of answer, flat for writeHead, built once per copy.
  function headsFor(page: Template, variant: Variant, personal: boolean, encoding: "br" | "gzip" | null, body: Buffer | null): string[] {
    const key = `${personal ? "p" : "s"}${encoding ?? ""}${body ? "" : "304"}`;
    let heads = variant.heads.get(key);
    if (!heads) {
      heads = page.headers.flat();
      heads.push("Vary", "Accept-Encoding, Cookie");
      heads.push("Cache-Control", personal ? PERSONAL_CACHE_CONTROL : SHARED_CACHE_CONTROL);
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
    const ifNoneMatch = req.headers["if-none-match"];
    const notModified = ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => tag.trim() === variant.etag);
    if (notModified) return send(req, res, page, variant, read, personal, "", { body: null, encoding: null });
    const nonce = freshNonce();
    // Brotli or gzip kept compressed around the nonces (decisions 0028, 0032).
    const encoded = bodyWithNonceWhenReady(variant.copy, nonce, req.headers["accept-encoding"]);
    if (encoded instanceof Promise) {
      // A new copy's brotli form is a few milliseconds away on the thread pool.
      return void encoded
        .then((ready) => send(req, res, page, variant, read, personal, nonce, ready))
        .catch((error: unknown) => {
          // Never an unhandled rejection (it would end the process): the page goes out uncompressed.
          console.error("The page cache could not encode", logField(req.url), error);
          if (!res.headersSent)
            send(req, res, page, variant, read, personal, nonce, { body: withNonce(variant.copy, nonce), encoding: null });
        });
    }
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
    console.error("The page cache failed for", logField(url), error);
    if (!res.headersSent) next();
  }

  /**
   * Answers a cached page, or calls `next` for anything else. Works on node:http's own request
   * (server.js calls it before Express sees the request) as well as inside Express.
   */
  return function servePageCache(req: NodeRequest, res: ServerResponse, next: Next): void {
    // Only the cache itself renders a template; a header claiming one is taken off (as server.js does first).
    stripInternalHeaders(req);
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const path = req.originalUrl ?? req.url ?? "/";
    const query = path.indexOf("?");
    const pathname = query === -1 ? path : path.slice(0, query);
    if (!match(pathname)) return next();
    const url = `${req.protocol ?? protocolOf(req)}://${req.headers.host ?? "localhost"}${path}`;
    try {
      const entry = template(url, req, pathname);
      if (entry instanceof Promise) {
        return void entry.then((known) => withVisitor(req, res, next, known, url)).catch((error: unknown) => failed(res, next, url, error));
      }
      withVisitor(req, res, next, entry, url);
    } catch (error) {
      failed(res, next, url, error);
    }
  };
}

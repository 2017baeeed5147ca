import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import type { Visitor } from "../contracts/visitor";
import { TEMPLATE_HEADER } from "./page-template";

type Next = (error?: unknown) => void;
type NodeRequest = IncomingMessage & { originalUrl?: string; protocol?: string };

export interface PageCacheOptions {
  /** The pages served from the cache, by path. */
  match: (pathname: string) => boolean;
  /** Renders a page for nobody (the request carries no cookie and the template header). */
  render: (request: Request) => Promise<Response>;
  /** The database's page version (decision 0014): a change drops every cached page. */
  readVersion: () => Promise<number>;
  /** The visitor's own parts, from their cookies, and the cookies to send back. */
  readVisitor: (request: Request) => Promise<{ visitor: Visitor; setCookies: string[] }>;
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
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

interface Template {
  pass: false;
  /** The page cut at its holes: text, hole name, text, hole name, …, text. */
  parts: string[];
  headers: [string, string][];
  hash: string;
  variants: Map<string, Variant>;
}

interface Entry {
  page: Template | { pass: true };
  version: number;
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

function encodingFor(acceptEncoding: string | undefined): "br" | "gzip" | null {
  if (!acceptEncoding) return null;
  if (/\bbr\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding)) return "br";
  if (/\bgzip\b(?!;q=0(\.0*)?\b)/.test(acceptEncoding)) return "gzip";
  return null;
}

// Each copy is compressed once per page version and bag state, so a middle level pays off; the
// flash copies are one-offs but rare (one per redirect with a message).
function compress(variant: Variant, encoding: "br" | "gzip"): Buffer {
  if (encoding === "br") {
    variant.br ??= zlib.brotliCompressSync(variant.identity, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: variant.identity.length },
    });
    return variant.br;
  }
  variant.gzip ??= zlib.gzipSync(variant.identity, { level: 6 });
  return variant.gzip;
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
  } = options;
  const pages = new Map<string, Entry>();
  const rendering = new Map<string, Promise<Entry | null>>();
  let version = { value: -1, readAt: -Infinity };
  let reading: Promise<number> | null = null;

  const currentVersion = (): Promise<number> | number => {
    if (now() - version.readAt < versionEveryMs) return version.value;
    reading ??= readVersion().then(
      (value) => {
        version = { value, readAt: now() };
        reading = null;
        return value;
      },
      (error: unknown) => {
        reading = null;
        throw error;
      },
    );
    return reading;
  };

  async function renderTemplate(
    key: string,
    url: string,
    req: NodeRequest,
    atVersion: number,
    previous: Entry | undefined,
  ): Promise<Entry | null> {
    const headers = new Headers({ [TEMPLATE_HEADER]: "1", Accept: "text/html" });
    if (req.headers.host) headers.set("Host", req.headers.host);
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
      entry = { page: { pass: true }, version: atVersion, storedAt: now() };
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
              hash,
              variants: new Map(),
            };
      entry = { page, version: atVersion, storedAt: now() };
    }
    if (pages.size >= maxPages && !pages.has(key)) pages.delete(pages.keys().next().value!);
    pages.set(key, entry);
    return entry;
  }

  async function template(key: string, url: string, req: NodeRequest): Promise<Entry | null> {
    const atVersion = await currentVersion();
    const entry = pages.get(key);
    if (entry && entry.version === atVersion && now() - entry.storedAt < ttlMs) return entry;
    let pending = rendering.get(key);
    if (!pending) {
      pending = renderTemplate(key, url, req, atVersion, entry)
        .catch((error: unknown) => {
          console.error("The page cache could not render", url, error);
          return null;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
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
    variant = { etag: `W/"${page.hash}-${digest(key)}"`, identity: Buffer.from(fill(page.parts, fragments(visitor))) };
    if (page.variants.size >= maxVariants) page.variants.delete(page.variants.keys().next().value!);
    page.variants.set(key, variant);
    return variant;
  }

  return async function servePageCache(req: NodeRequest, res: ServerResponse, next: Next) {
    // Only the cache itself may ask for a template.
    delete req.headers[TEMPLATE_HEADER];
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const path = req.originalUrl ?? req.url ?? "/";
    if (!match(path.split("?")[0]!)) return next();
    try {
      const url = `${req.protocol ?? "http"}://${req.headers.host ?? "localhost"}${path}`;
      const entry = await template(url, url, req);
      if (!entry || entry.page.pass) return next();
      const page = entry.page;

      const cookie = req.headers.cookie;
      let visitor: Visitor = { cartCount: 0, user: null, toast: null };
      let setCookies: string[] = [];
      if (cookie) {
        const headers = new Headers({ Cookie: cookie });
        const proto = req.headers["x-forwarded-proto"];
        if (typeof proto === "string") headers.set("X-Forwarded-Proto", proto);
        ({ visitor, setCookies } = await readVisitor(new Request(url, { headers })));
      }
      const variant = variantFor(page, visitor);

      for (const [name, value] of page.headers) res.setHeader(name, value);
      res.setHeader("Vary", "Accept-Encoding, Cookie");
      res.setHeader("Cache-Control", cookie ? PERSONAL_CACHE_CONTROL : SHARED_CACHE_CONTROL);
      res.setHeader("ETag", variant.etag);
      res.setHeader("X-Page-Cache", "HIT");
      if (setCookies.length) res.setHeader("Set-Cookie", setCookies);

      const ifNoneMatch = req.headers["if-none-match"];
      if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === variant.etag)) {
        res.statusCode = 304;
        return res.end();
      }
      const encoding = encodingFor(req.headers["accept-encoding"]);
      const body = encoding ? compress(variant, encoding) : variant.identity;
      if (encoding) res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", body.length);
      res.statusCode = 200;
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (error) {
      // The cache is a shortcut: when it fails, the page is rendered as it would be without it.
      console.error("The page cache failed for", path, error);
      if (!res.headersSent) next();
    }
  };
}

import { createHash } from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { notModified, preferredEncoding, type Coding } from "./negotiation";
import { percentDecoded } from "#server/http/requests/percent-decode";
import { IMMUTABLE } from "./cache-control";

type Next = (error?: unknown) => void;

interface Variant {
  body: Buffer;
  etag: string;
}

interface Asset {
  type: string;
  variants: Partial<Record<Coding, Variant>> & { identity: Variant };
}

// The build's file kinds; anything else is served as bytes.
const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".ico": "image/x-icon",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".otf": "font/otf",
  ".wasm": "application/wasm",
  ".mp3": "audio/mpeg",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
};

const etagOf = (body: Buffer, suffix: string) => `"${createHash("sha1").update(body).digest("base64url").slice(0, 22)}${suffix}"`;

/** Every file under dir (relative, forward slashes) with the .br/.gz made at build beside it. */
export function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!fs.existsSync(dir)) return assets;
  const names = (fs.readdirSync(dir, { recursive: true }) as string[]).map((name) => name.split(path.sep).join("/"));
  const present = new Set(names);
  for (const name of names) {
    if (/\.(br|gz)$/.test(name)) continue;
    const full = path.join(dir, name);
    if (!fs.statSync(full).isFile()) continue;
    const body = fs.readFileSync(full);
    const base = etagOf(body, "");
    const asset: Asset = {
      type: TYPES[path.extname(name).toLowerCase()] ?? "application/octet-stream",
      variants: { identity: { body, etag: base } },
    };
    if (present.has(`${name}.br`)) asset.variants.br = { body: fs.readFileSync(`${full}.br`), etag: base.replace(/"$/, '-br"') };
    if (present.has(`${name}.gz`)) asset.variants.gzip = { body: fs.readFileSync(`${full}.gz`), etag: base.replace(/"$/, '-gz"') };
    assets.set(`/${name}`, asset);
  }
  return assets;
}

/**
 * The build's fingerprinted assets, answered from memory. The folder is listed and read once, when
 * the server starts: a name's content never changes (a change is a new name), so a request costs a
 * map lookup, never a stat, a read or a compression. Brotli and gzip come from the .br and .gz files
 * the build wrote (scripts/precompress-assets.mjs); the answer carries its Content-Encoding, which
 * the compression() middleware leaves alone. Names not in the folder fall through.
 */
export function staticAssets(dir: string) {
  const assets = loadAssets(dir);

  return function serveAsset(req: IncomingMessage, res: ServerResponse, next: Next) {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const name = percentDecoded((req.url ?? "/").split("?")[0]!);
    if (name === null) return next();
    const asset = assets.get(name);
    if (!asset) return next();

    const available = Object.keys(asset.variants) as Coding[];
    const encoding = preferredEncoding(req.headers["accept-encoding"], available);
    const variant = asset.variants[encoding]!;

    res.setHeader("Content-Type", asset.type);
    res.setHeader("Cache-Control", IMMUTABLE);
    res.setHeader("ETag", variant.etag);
    if (available.length > 1) res.setHeader("Vary", "Accept-Encoding");
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);

    if (notModified(req.headers["if-none-match"], variant.etag)) {
      res.removeHeader("Content-Type");
      res.removeHeader("Content-Encoding");
      res.statusCode = 304;
      return res.end();
    }
    res.statusCode = 200;
    res.setHeader("Content-Length", variant.body.length);
    res.end(req.method === "HEAD" ? undefined : variant.body);
  };
}

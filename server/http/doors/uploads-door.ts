import fs from "node:fs";
import path from "node:path";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { getAppContext } from "#server/boot";
import { notModified } from "#server/http/cache/negotiation";
import { percentDecoded } from "#server/http/requests/percent-decode";
import { IMMUTABLE } from "#server/http/cache/cache-control";

const TYPES: Record<string, string> = {
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".gif": "image/gif",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".mp3": "audio/mpeg",
  ".ogg": "audio/ogg",
  ".wav": "audio/wav",
  ".pdf": "application/pdf",
};

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

const PREFIX = "/uploads/";

/**
 * GET /uploads/{file}: files stored under UPLOADS_DIR. Upload names are content-derived and never
 * reused, so they can be cached for a year. Only known media types; never outside the folder.
 */
export async function serveUpload(request: Request): Promise<Response> {
  const ctx = await getAppContext();
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith(PREFIX)) return notFound();
  const root = path.resolve(ctx.config.uploadsDir);
  // Still URL-encoded here: an encoded slash is decoded before the folder check below.
  const relative = percentDecoded(pathname.slice(PREFIX.length));
  if (relative === null) return notFound();
  const target = path.resolve(root, relative);
  const type = TYPES[path.extname(target).toLowerCase()];
  if (!target.startsWith(root + path.sep) || !type) return notFound();
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(target);
  } catch {
    return notFound();
  }
  if (!stat.isFile()) return notFound();
  const etag = `"${stat.size.toString(16)}-${stat.mtimeMs.toString(16)}"`;
  const headers = {
    "Content-Type": type,
    "Cache-Control": IMMUTABLE,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (notModified(request.headers.get("If-None-Match"), etag)) return new Response(null, { status: 304, headers });
  const head = request.method === "HEAD";
  // Safari and iOS only play video served in byte ranges; browsers seek audio the same way.
  const range = parseRange(request.headers.get("Range"), stat.size);
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${stat.size}` } });
  }
  if (range) {
    const body = head ? null : createReadableStreamFromReadable(fs.createReadStream(target, { start: range.start, end: range.end }));
    return new Response(body, {
      status: 206,
      headers: {
        ...headers,
        "Accept-Ranges": "bytes",
        "Content-Range": `bytes ${range.start}-${range.end}/${stat.size}`,
        "Content-Length": String(range.end - range.start + 1),
      },
    });
  }
  const body = head ? null : createReadableStreamFromReadable(fs.createReadStream(target));
  return new Response(body, { headers: { ...headers, "Accept-Ranges": "bytes", "Content-Length": String(stat.size) } });
}

/** A single "bytes=start-end" range (the only kind media players send); null means the whole file. */
export function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return "unsatisfiable";
  return { start, end };
}

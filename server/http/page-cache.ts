import type { IncomingMessage, ServerResponse } from "node:http";

type Next = (error?: unknown) => void;
type Request = IncomingMessage & { originalUrl?: string };

interface Entry {
  status: number;
  headers: [string, string | number | string[]][];
  body: Buffer;
  storedAt: number;
}

// Headers the transport or the compression in front of this cache sets again for each answer.
const NOT_REPLAYED = new Set(["content-length", "content-encoding", "transfer-encoding", "vary", "date", "connection", "keep-alive"]);

/**
 * A one-second cache of whole pages for visitors who carry no cookies at all. When a countdown
 * reaches zero every open landing page sends its visitor to /store in the same second; those
 * first-time visitors have no bag, no session and no notice, so they would all be served the same
 * bytes, rendered once per second instead of once per visitor. Concurrent misses wait for the one
 * render in flight. Anything personal stays out: a request with a Cookie or Authorization header,
 * an answer that sets a cookie, is not a 200, or says private / no-store, is never stored.
 */
export function anonymousPageCache({ match, ttlMs = 1000, now = Date.now, maxEntries = 200 }: { match: (pathname: string) => boolean; ttlMs?: number; now?: () => number; maxEntries?: number }) {
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry | null>>();

  const replay = (res: ServerResponse, entry: Entry) => {
    res.statusCode = entry.status;
    for (const [name, value] of entry.headers) res.setHeader(name, value);
    res.setHeader("X-Page-Cache", "HIT");
    res.end(entry.body);
  };

  return async function pageCache(req: Request, res: ServerResponse, next: Next) {
    if (req.method !== "GET" || req.headers.cookie || req.headers.authorization) return next();
    const url = req.originalUrl ?? req.url ?? "/";
    if (!match(url.split("?")[0]!)) return next();

    const cached = entries.get(url);
    if (cached && now() - cached.storedAt < ttlMs) return replay(res, cached);
    const pending = inFlight.get(url);
    if (pending) {
      const entry = await pending;
      return entry ? replay(res, entry) : next();
    }

    let settle!: (entry: Entry | null) => void;
    inFlight.set(url, new Promise<Entry | null>((resolve) => (settle = resolve)));
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk === "string") chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && typeof chunk !== "function") keep(chunk, rest[0]);
      const cacheControl = String(res.getHeader("cache-control") ?? "");
      const storable = res.statusCode === 200 && !res.hasHeader("set-cookie") && !/private|no-store/i.test(cacheControl);
      let entry: Entry | null = null;
      if (storable) {
        entry = {
          status: 200,
          headers: Object.entries(res.getHeaders()).filter(([name, value]) => value !== undefined && !NOT_REPLAYED.has(name)) as Entry["headers"],
          body: Buffer.concat(chunks),
          storedAt: now(),
        };
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(url, entry);
      }
      inFlight.delete(url);
      settle(entry);
      return end(chunk, ...rest);
    }) as typeof res.end;
    // A request that dies before answering must not leave the others waiting.
    res.on("close", () => {
      if (inFlight.has(url)) {
        inFlight.delete(url);
        settle(null);
      }
    });
    next();
  };
}

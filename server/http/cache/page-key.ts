import type { IncomingMessage } from "node:http";

/**
 * The query parameters a page reads, each with its canonical form of a value (null: reads as
 * absent). Any other parameter, or a value that reads as absent, is the same page (decision 0039).
 */
export type PageQuery = Readonly<Record<string, (value: string) => string | null>>;

/**
 * The canonical form of a page's address: its path and the query parameters it reads, each in its
 * canonical form, in the order the page declares them. Nothing else a client writes in the query
 * makes another copy (decision 0039). `query` is where the `?` is in `path` (-1: none); a page
 * that reads nothing costs no parsing.
 */
export function canonicalPath(pathname: string, path: string, query: number, reads: PageQuery | undefined): string {
  if (query === -1 || !reads) return pathname;
  // URLSearchParams never throws: a malformed escape is kept as written.
  const given = new URLSearchParams(path.slice(query + 1));
  const kept = new URLSearchParams();
  for (const [name, canonical] of Object.entries(reads)) {
    const value = given.get(name);
    const normal = value === null ? null : canonical(value);
    if (normal !== null) kept.set(name, normal);
  }
  const search = kept.toString();
  return search ? `${pathname}?${search}` : pathname;
}

// A Host header naming a host and port only (a name, IPv4 or [IPv6]).
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

type NodeRequest = IncomingMessage & { protocol?: string };

/**
 * The origin a cache renders and keys its pages on (decision 0039): `published` (PUBLIC_URL) when
 * set; otherwise the first well-formed Host a request named, over the request's scheme, http or
 * https and nothing else. Never each request's Host, or a stranger could make a copy per header.
 * Express's req.protocol wins over `protocolOf`.
 */
export function ownOrigin(published: string | null, protocolOf: (req: IncomingMessage) => string) {
  let hostKnown = false;
  let origins = { http: "http://localhost", https: "https://localhost" };
  return function originOf(req: NodeRequest): string {
    if (published) return published;
    if (!hostKnown) {
      const seen = req.headers.host;
      if (seen && HOST.test(seen)) {
        hostKnown = true;
        const host = seen.toLowerCase();
        origins = { http: `http://${host}`, https: `https://${host}` };
      }
    }
    return (req.protocol ?? protocolOf(req)) === "https" ? origins.https : origins.http;
  };
}

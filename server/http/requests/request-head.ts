import type { IncomingHttpHeaders } from "node:http";

/**
 * What the store's request helpers read of a request: its URL, method and headers. A fetch Request
 * is one; so is the write door's `NodeRequestHead`, made without undici (decision 0070).
 */
export interface RequestHead {
  readonly url: string;
  readonly method: string;
  readonly headers: Pick<Headers, "get" | "has">;
}

/**
 * node's headers read as a fetch Headers reads the same request's: a name in any case, repeated
 * values joined with ", ", an empty one absent (node-exchange.ts leaves those out of a Request).
 */
class NodeHeaders implements Pick<Headers, "get" | "has"> {
  constructor(private readonly raw: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const key = name.toLowerCase();
    // node's headers are a plain object: only its own entries are headers, never "constructor".
    if (!Object.hasOwn(this.raw, key)) return null;
    const value = this.raw[key];
    if (Array.isArray(value)) return value.join(", ");
    return typeof value === "string" && value !== "" ? value : null;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

/**
 * A request as node gave it, for the API's writes whose body was read first (node-exchange.ts):
 * undici's Request, with its Headers and AbortSignal, cost about 5 % of a worker's busy time in a
 * drop's rush. The rare reader that needs a fetch Request (tRPC, a multipart upload) gets one made
 * the first time it asks (`fetchRequestFor`).
 */
export class NodeRequestHead implements RequestHead {
  readonly headers: NodeHeaders;
  #request: Request | undefined;

  constructor(
    readonly url: string,
    readonly method: string,
    raw: IncomingHttpHeaders,
    private readonly makeRequest: () => Request,
  ) {
    this.headers = new NodeHeaders(raw);
  }

  toRequest(): Request {
    return (this.#request ??= this.makeRequest());
  }
}

/** The fetch Request behind a head: itself when it is one. */
export function fetchRequestFor(request: RequestHead): Request {
  if (request instanceof NodeRequestHead) return request.toRequest();
  if (request instanceof Request) return request;
  throw new TypeError("This request has no fetch Request behind it.");
}

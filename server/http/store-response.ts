import { ServerResponse, type IncomingMessage } from "node:http";

/**
 * node:http's response as server.js makes it, carrying its request's id until the head is
 * written. Set with `setHeader` as soon as the request arrived, the id put every later
 * `writeHead` of a flat header list (the page cache's, the API doors') on node's slow path, where
 * each header is set and stored again one at a time; here it joins that list instead. A head
 * built with `setHeader` (Express, Remix) gets it the same way, by `setHeader`.
 */
export class StoreResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  /** The X-Request-Id still to be written with the head; null once written or handed on. */
  requestId: string | null = null;
}

const nodeWriteHead = ServerResponse.prototype.writeHead;

// writeHead(status, headers?) or writeHead(status, reason, headers?), as node takes it.
function writeHeadWithId(this: StoreResponse, ...args: unknown[]): unknown {
  const id = this.requestId;
  if (id !== null) {
    this.requestId = null;
    const at = typeof args[1] === "string" ? 2 : 1;
    const list = args[at];
    if (Array.isArray(list)) {
      // A flat list or a list of pairs; the caller's may be a kept one, so a copy.
      args[at] = list.length > 0 && Array.isArray(list[0]) ? [...list, ["X-Request-Id", id]] : [...list, "X-Request-Id", id];
    } else if (!this.hasHeader("X-Request-Id")) {
      this.setHeader("X-Request-Id", id);
    }
  }
  return Reflect.apply(nodeWriteHead, this, args);
}

Object.defineProperty(StoreResponse.prototype, "writeHead", { value: writeHeadWithId, writable: true, configurable: true });

/** Gives a response its request's id now, by `setHeader`: before Express, which swaps the response's prototype for its own. */
export function requestIdAsHeader(res: ServerResponse): void {
  if (!(res instanceof StoreResponse) || res.requestId === null) return;
  if (!res.headersSent && !res.hasHeader("X-Request-Id")) res.setHeader("X-Request-Id", res.requestId);
  res.requestId = null;
}

/** Carries the request's id into the head of a StoreResponse, else sets it at once (a plain node:http response). */
export function giveRequestId(res: ServerResponse, requestId: string): void {
  if (res instanceof StoreResponse) res.requestId = requestId;
  else res.setHeader("X-Request-Id", requestId);
}

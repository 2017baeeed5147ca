import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Express } from "express";

/**
 * TRUST_PROXY's hop rule (decision 0037), the one every reader of X-Forwarded-For, -Proto and
 * -Host follows. Each proxy appends what it saw, so the entries a client wrote come first and the
 * trusted proxies' last: with N hops trusted, the entry the outermost of them wrote is the N-th
 * from the right (the left-most when there are fewer). Express's `trust proxy` set to N picks the
 * same address from X-Forwarded-For. No hops trusted: undefined, the header is the client's word.
 */
export function fromTrustedHop(header: string | string[] | null | undefined, hops: number): string | undefined {
  if (hops < 1 || header == null) return undefined;
  const entries = [header]
    .flat()
    .join(",")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries[Math.max(0, entries.length - hops)];
}

/** The scheme the browser used, as the trusted proxy reports it: "http", "https" or undefined. */
export function forwardedProto(header: string | string[] | null | undefined, hops: number): "http" | "https" | undefined {
  const proto = fromTrustedHop(header, hops)?.toLowerCase();
  return proto === "http" || proto === "https" ? proto : undefined;
}

/** The caller's address for a node request: the trusted proxy's word, else the socket's. */
export function clientAddressOf(req: IncomingMessage, hops: number): string | undefined {
  return fromTrustedHop(req.headers["x-forwarded-for"], hops) ?? req.socket.remoteAddress;
}

/**
 * The address the browser asked for, from the trusted proxy's scheme and host as Express gives them
 * to Remix: what the doors ahead of Express (decisions 0056, 0060) hand their fetch Request.
 */
export function requestUrlOf(req: IncomingMessage, hops: number): string {
  const encrypted = (req.socket as Partial<TLSSocket>).encrypted;
  const scheme = forwardedProto(req.headers["x-forwarded-proto"], hops) ?? (encrypted ? "https" : "http");
  // The listener has refused a Host no URL can be made of (raw-listener.ts); HTTP/1.0 may send none.
  const host = fromTrustedHop(req.headers["x-forwarded-host"], hops) ?? req.headers.host ?? "localhost";
  return `${scheme}://${host}${req.url}`;
}

/**
 * Express told to trust `hops` proxies: req.ip by the hop count (Express's own rule for a number),
 * and req.protocol and req.hostname, which Express takes from the first (client-written) entry of
 * a list, from the trusted hop instead. Remix's request URL is built from those two.
 */
export function trustProxyHops(app: Express, hops: number): void {
  app.set("trust proxy", hops);
  if (hops < 1) return;
  Object.defineProperty(app.request, "protocol", {
    configurable: true,
    enumerable: true,
    get(this: IncomingMessage) {
      return (
        forwardedProto(this.headers["x-forwarded-proto"], hops) ?? ((this.socket as { encrypted?: boolean }).encrypted ? "https" : "http")
      );
    },
  });
  const hostname = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(app.request), "hostname")!.get!;
  Object.defineProperty(app.request, "hostname", {
    configurable: true,
    enumerable: true,
    get(this: IncomingMessage) {
      const forwarded = fromTrustedHop(this.headers["x-forwarded-host"], hops);
      // Express's own reading of Host (an IPv6 literal, the port left off) on the trusted value.
      const view = Object.create(this, { headers: { value: { ...this.headers, "x-forwarded-host": forwarded } } }) as IncomingMessage;
      return hostname.call(view);
    },
  });
}

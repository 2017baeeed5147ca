import type { RequestHead } from "./request-head";
import type { Config } from "#server/config";
import { forwardedProto, fromTrustedHop } from "./forwarded";

/** What the configuration says about the site's own address. */
export type SiteAddressing = Pick<Config, "publicUrl" | "trustProxy">;

/** A request as far as its origin goes: its headers, and the scheme its connection to us used. */
export interface RequestAddress {
  scheme: string;
  header(name: string): string | null | undefined;
}

// Only a host and port: "evil.example/x" or "user@host" in a Host header is not a host.
const HOST = /^[^\s/\\?#@]+$/;

/**
 * The origin (scheme, host and port) of this store for a request: PUBLIC_URL when set; otherwise
 * the Host the request came to over the connection's scheme, where under TRUST_PROXY the trusted
 * proxy's X-Forwarded-Proto and X-Forwarded-Host speak for the browser (the hop rule of
 * server/http/requests/forwarded.ts, as Express reads them). Nobody else may: entries a client wrote ahead
 * of the trusted hop's are not read. null when no host is named.
 */
export function siteOriginOf(request: RequestAddress, site: SiteAddressing): string | null {
  if (site.publicUrl) return site.publicUrl;
  const scheme = forwardedProto(request.header("x-forwarded-proto"), site.trustProxy) ?? request.scheme;
  const host = fromTrustedHop(request.header("x-forwarded-host"), site.trustProxy) ?? request.header("host");
  if (!host || !HOST.test(host)) return null;
  try {
    return new URL(`${scheme}://${host}`).origin;
  } catch {
    return null;
  }
}

/** Where links the store hands out point (subscriber mail, Stripe's return address). */
export function siteOrigin(request: RequestHead, site: SiteAddressing): string {
  const url = new URL(request.url);
  const address = { scheme: url.protocol.slice(0, -1), header: (name: string) => request.headers.get(name) };
  return siteOriginOf(address, site) ?? url.origin;
}

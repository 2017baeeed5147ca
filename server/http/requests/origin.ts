import type { IncomingMessage, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import { siteOriginOf, type RequestAddress, type SiteAddressing } from "./site-origin";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export interface WriteRequest extends RequestAddress {
  method: string;
}

/**
 * CSRF defence for a cookie-authenticated app: a state-changing request that a browser says came
 * from another site (Sec-Fetch-Site), or whose Origin is not exactly ours (scheme, host and port:
 * an http page must not write to the https store, nor the reverse), is refused. Requests without
 * Origin (curl, server-to-server callers such as payment webhooks) carry no ambient browser
 * cookies from another site, so they pass.
 */
export function isCrossSiteWrite(request: WriteRequest, site: SiteAddressing): boolean {
  if (SAFE.has(request.method.toUpperCase())) return false;
  const fetchSite = request.header("sec-fetch-site")?.trim().toLowerCase();
  if (fetchSite === "cross-site") return true;
  const origin = request.header("origin");
  if (!origin) return false;
  // A page whose referrer policy is no-referrer (the unsubscribe page keeps its token out of
  // Referer) has Chromium post its own form with `Origin: null`. Sec-Fetch-Site is written by the
  // browser alone (no page script can set it), so its "same-origin" vouches for such a post; an
  // opaque origin from anywhere else (a sandboxed frame, another site) is still refused.
  if (origin === "null") return fetchSite !== "same-origin";
  try {
    return new URL(origin).origin !== siteOriginOf(request, site);
  } catch {
    return true;
  }
}

/**
 * The check as Node middleware, ahead of Remix: actions run before any Remix hook could refuse
 * them. Mounted by server.js and, for `npm run dev`, by a plugin in vite.config.ts.
 */
export function refuseCrossSiteWrites(site: SiteAddressing) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    const request: WriteRequest = {
      method: req.method ?? "GET",
      scheme: (req.socket as Partial<TLSSocket>).encrypted ? "https" : "http",
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(", ") : value;
      },
    };
    if (!isCrossSiteWrite(request, site)) {
      // Remix checks the Origin of every non-GET `.data` request again, its own way: against an
      // X-Forwarded-Host anyone may write, or Host, never PUBLIC_URL or the trusted hop; and a
      // mismatch is a thrown Error, a 500 with a stack in the log. It refused a same-origin post
      // carrying a stranger's X-Forwarded-Host, an OPTIONS from another site, and the "null" Origin
      // Sec-Fetch-Site vouched for. This check has just spoken for the request by the store's
      // rules, so the Origin goes no further (nothing after it reads one).
      delete req.headers.origin;
      return next();
    }
    res.statusCode = 403;
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.end(JSON.stringify({ message: "Cross-site requests are not allowed.", errors: {} }));
  };
}

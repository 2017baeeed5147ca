/**
 * CSRF defence for a cookie-authenticated app: a state-changing request whose Origin names
 * another site is refused. Requests without Origin (curl, server-to-server callers such as
 * payment webhooks) carry no ambient browser cookies from another site, so they pass.
 */
const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossSiteWrite(method: string, origin: string | undefined | null, host: string | undefined | null): boolean {
  if (SAFE.has(method.toUpperCase())) return false;
  if (!origin) return false;
  if (origin === "null") return true;
  try {
    return new URL(origin).host !== host;
  } catch {
    return true;
  }
}

/**
 * Where links the store hands out point (subscriber mail, Stripe's return address): PUBLIC_URL
 * when set (behind a proxy that rewrites the host), otherwise the origin the request came to.
 */
export function siteOrigin(request: Request, env: Record<string, string | undefined> = process.env): string {
  const configured = env.PUBLIC_URL?.trim();
  if (configured) {
    try {
      return new URL(configured).origin;
    } catch {
      // A malformed PUBLIC_URL falls back to the request rather than mailing broken links.
    }
  }
  return new URL(request.url).origin;
}

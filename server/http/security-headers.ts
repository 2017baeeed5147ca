import type { Config } from "#server/config";

/**
 * The security headers of every HTML page (decision 0028): a Content-Security-Policy with this
 * answer's nonce, the Permissions-Policy, HSTS over https, and the long-standing ones. Stripe's
 * hosts appear only when Stripe is configured.
 */

export const CSP_REPORT_PATH = "/api/csp-report";
const REPORT_GROUP = "csp";

type PolicyConfig = Pick<Config, "payments" | "publicUrl">;

/** The policy with `nonce` for its scripts. */
export function contentSecurityPolicy(config: PolicyConfig, nonce: string): string {
  const stripe = config.payments.mode === "stripe";
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    // Scripts run only with this answer's nonce, and what they load ('strict-dynamic'): Remix's
    // module script imports the route modules, loadStripe adds Stripe.js. 'self' (and Stripe's
    // host) are for browsers without 'strict-dynamic' (CSP 2), which ignore it otherwise. Browsers
    // without nonces run no script at all, and every page works without JavaScript (decision 0005).
    [
      "script-src",
      `'nonce-${nonce}'`,
      "'strict-dynamic'",
      "'self'",
      ...(stripe ? ["https://js.stripe.com", "https://*.js.stripe.com"] : []),
    ],
    // Inline styles stay allowed: React renders style attributes (the holes' display:contents, the
    // colour swatches, progress bars), sonner and Radix insert <style> elements without a nonce, and
    // e-mail previews (srcdoc frames, which inherit this policy) are inline-styled HTML.
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:", ...(stripe ? ["https://*.stripe.com"] : [])],
    ["media-src", "'self'", "blob:"],
    ["font-src", "'self'", "data:"],
    ["connect-src", "'self'", ...(stripe ? ["https://api.stripe.com", "https://m.stripe.network", "https://*.js.stripe.com"] : [])],
    ...(stripe
      ? [
          ["frame-src", "https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com", "https://m.stripe.network"] as [
            string,
            ...string[],
          ],
        ]
      : []),
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["frame-ancestors", "'none'"],
    // The no-JavaScript payment form posts here and is redirected to Stripe's hosted Checkout;
    // browsers check a form's redirects against form-action too.
    ["form-action", "'self'", ...(stripe ? ["https://checkout.stripe.com"] : [])],
    ["report-uri", CSP_REPORT_PATH],
    ["report-to", REPORT_GROUP],
  ];
  return directives.map((parts) => parts.join(" ")).join("; ");
}

export function permissionsPolicy(config: PolicyConfig): string {
  const payment = config.payments.mode === "stripe" ? `(self "https://js.stripe.com")` : "()";
  return `camera=(), microphone=(), geolocation=(), usb=(), payment=${payment}`;
}

/** Whether the browser reached the store over https: the request's own scheme, or an https PUBLIC_URL. */
export function servedOverHttps(config: PolicyConfig, requestUrl: string): boolean {
  return requestUrl.startsWith("https:") || (config.publicUrl?.startsWith("https:") ?? false);
}

/** Every security header of an HTML page, but the CSP (which carries the answer's nonce). */
export function pageSecurityHeaders(config: PolicyConfig, https: boolean): [string, string][] {
  const headers: [string, string][] = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    // Old browsers' frame-ancestors.
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", permissionsPolicy(config)],
    ["Reporting-Endpoints", `${REPORT_GROUP}="${CSP_REPORT_PATH}"`],
  ];
  if (https) headers.push(["Strict-Transport-Security", "max-age=63072000; includeSubDomains"]);
  return headers;
}

/** For the few small pages answered outside Remix (the waiting room's 429): no script, inline styles. */
export const BARE_PAGE_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

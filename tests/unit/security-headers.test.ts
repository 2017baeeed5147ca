import { describe, expect, it } from "vitest";
import type { PaymentsConfig } from "#server/config";
import { contentSecurityPolicy, pageSecurityHeaders, permissionsPolicy, servedOverHttps } from "#server/http/security-headers";

const testMode: { payments: PaymentsConfig; publicUrl: string | null } = { payments: { mode: "test" }, publicUrl: null };
const stripe = {
  payments: { mode: "stripe", secretKey: "sk_test_x", publishableKey: "pk_test_x", webhookSecret: null } as PaymentsConfig,
  publicUrl: "https://shop.example",
};
const directives = (policy: string) => new Map(policy.split("; ").map((d) => [d.split(" ")[0]!, d.split(" ").slice(1)]));

describe("the security headers of a page", () => {
  it("a strict policy in test mode: this answer's nonce, no host but the store's own", () => {
    const policy = contentSecurityPolicy(testMode, "AAAABBBBCCCCDDDDEEEEFFFF");
    const d = directives(policy);
    expect(d.get("script-src")).toEqual(["'nonce-AAAABBBBCCCCDDDDEEEEFFFF'", "'strict-dynamic'", "'self'"]);
    expect(d.get("object-src")).toEqual(["'none'"]);
    expect(d.get("base-uri")).toEqual(["'self'"]);
    expect(d.get("frame-ancestors")).toEqual(["'none'"]);
    expect(d.get("form-action")).toEqual(["'self'"]);
    expect(d.get("default-src")).toEqual(["'self'"]);
    expect(d.get("report-uri")).toEqual(["/api/csp-report"]);
    expect(d.get("report-to")).toEqual(["csp"]);
    expect(d.has("frame-src")).toBe(false);
    expect(policy).not.toMatch(/stripe/);
    expect(d.get("script-src")).not.toContain("'unsafe-inline'");
    expect(permissionsPolicy(testMode)).toBe("camera=(), microphone=(), geolocation=(), usb=(), payment=()");
  });

  it("with Stripe: Stripe.js, its API and frames, and hosted Checkout as a form's destination", () => {
    const d = directives(contentSecurityPolicy(stripe, "AAAABBBBCCCCDDDDEEEEFFFF"));
    expect(d.get("script-src")).toEqual(
      expect.arrayContaining(["'nonce-AAAABBBBCCCCDDDDEEEEFFFF'", "'strict-dynamic'", "https://js.stripe.com"]),
    );
    expect(d.get("connect-src")).toEqual(expect.arrayContaining(["'self'", "https://api.stripe.com"]));
    expect(d.get("frame-src")).toEqual(expect.arrayContaining(["https://js.stripe.com", "https://hooks.stripe.com"]));
    expect(d.get("form-action")).toEqual(["'self'", "https://checkout.stripe.com"]);
    expect(d.get("img-src")).toContain("https://*.stripe.com");
    expect(permissionsPolicy(stripe)).toBe(`camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://js.stripe.com")`);
  });

  it("HSTS only over https: the request's scheme or an https PUBLIC_URL", () => {
    const hsts = (config: typeof testMode, url: string) =>
      new Map(pageSecurityHeaders(config, servedOverHttps(config, url))).get("Strict-Transport-Security");
    expect(hsts(testMode, "http://localhost:3000/")).toBeUndefined();
    expect(hsts(testMode, "https://shop.example/")).toBe("max-age=63072000; includeSubDomains");
    expect(hsts(stripe, "http://127.0.0.1:3000/")).toBe("max-age=63072000; includeSubDomains");
    const kept = new Map(pageSecurityHeaders(testMode, false));
    expect(kept.get("X-Content-Type-Options")).toBe("nosniff");
    expect(kept.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(kept.get("X-Frame-Options")).toBe("DENY");
    expect(kept.get("Reporting-Endpoints")).toBe('csp="/api/csp-report"');
  });
});

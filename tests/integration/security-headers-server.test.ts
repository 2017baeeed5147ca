// The built store with Stripe configured, behind a trusted proxy (`npm start`, one worker): its
// pages' policy lists Stripe's hosts (the policy builder's own test covers the rest), HSTS goes
// out only to a browser that came over https, and a violation report is answered 204 and logged.
import { describe, expect, it } from "vitest";
import { builtStoreForFile } from "../setup/built-store-fixture";
import { CookieJar } from "../setup/http";

const built = builtStoreForFile("csp-server", () => ({
  WEB_CONCURRENCY: "1",
  TRUST_PROXY: "true",
  STRIPE_SECRET_KEY: "sk_test_csp",
  STRIPE_PUBLISHABLE_KEY: "pk_test_csp",
}));

const get = (url: string, jar?: CookieJar, headers: Record<string, string> = {}) =>
  fetch(`${built.store.baseUrl}${url}`, { headers: { Cookie: jar?.header() ?? "", ...headers }, redirect: "manual" });

describe("security headers on the built store with Stripe", () => {
  it("lists Stripe's hosts on /checkout and on cached pages, with a fresh nonce each time", async () => {
    const jar = new CookieJar();
    const added = await fetch(`${built.store.baseUrl}/api/cart`, {
      method: "POST",
      headers: { Origin: built.store.baseUrl, "Content-Type": "application/json" },
      body: JSON.stringify({ productId: 1, quantity: 1 }),
    });
    expect(added.status).toBe(201);
    jar.store(added);
    const policies: string[] = [];
    for (const url of ["/checkout", "/checkout", "/store", "/"]) {
      const page = await get(url, jar);
      expect(page.status, url).toBe(200);
      const policy = page.headers.get("Content-Security-Policy") ?? "";
      expect(policy).toMatch(/script-src 'nonce-[A-Za-z0-9+/]{24}' 'strict-dynamic' 'self' https:\/\/js\.stripe\.com/);
      expect(policy).toContain("connect-src 'self' https://api.stripe.com");
      expect(policy).toContain("frame-src https://js.stripe.com");
      expect(policy).toContain("form-action 'self' https://checkout.stripe.com");
      expect(page.headers.get("Permissions-Policy")).toBe(
        `camera=(), microphone=(), geolocation=(), usb=(), payment=(self "https://js.stripe.com")`,
      );
      const nonce = /'nonce-([^']+)'/.exec(policy)![1]!;
      expect(await page.text()).toContain(`<script nonce="${nonce}">`);
      policies.push(policy);
    }
    expect(new Set(policies).size).toBe(4);
  });

  it("sends HSTS only when the browser came over https (X-Forwarded-Proto from the trusted proxy)", async () => {
    for (const url of ["/", "/support", "/auth"]) {
      const overHttps = await get(url, undefined, { "X-Forwarded-Proto": "https" });
      expect(overHttps.headers.get("Strict-Transport-Security"), url).toBe("max-age=63072000; includeSubDomains");
      const plain = await get(url);
      expect(plain.headers.get("Strict-Transport-Security"), url).toBeNull();
      expect(plain.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(plain.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
      expect(plain.headers.get("X-Frame-Options")).toBe("DENY");
    }
  });

  it("answers a browser's violation report 204 and logs one line", async () => {
    const response = await fetch(`${built.store.baseUrl}/api/csp-report`, {
      method: "POST",
      headers: { "Content-Type": "application/csp-report" },
      body: JSON.stringify({
        "csp-report": { "document-uri": `${built.store.baseUrl}/store`, "effective-directive": "script-src-elem", "blocked-uri": "inline" },
      }),
    });
    expect(response.status).toBe(204);
    // The worker writes its log lines in batches: under a loaded CI run 100 ms was not always enough.
    await expect
      .poll(() => built.store.log(), { timeout: 5_000 })
      .toContain(`CSP violation: script-src-elem blocked inline on ${built.store.baseUrl}/store`);
    expect(built.store.log().split("CSP violation:").length - 1).toBe(1);
  });
});

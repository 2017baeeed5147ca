import { describe, expect, it } from "vitest";
import { loadConfig } from "#server/config";
import { siteOrigin } from "#server/http/requests/site-origin";

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });
const configWith = (env: Record<string, string>) =>
  loadConfig({ NODE_ENV: "test", SESSION_SECRET: "test", DATA_DIR: "/nonexistent", PAYMENTS: "test", ...env });

describe("siteOrigin (where links point)", () => {
  it("is PUBLIC_URL's origin when set, whatever the request came to", () => {
    const site = configWith({ PUBLIC_URL: "https://shop.example/some/path" });
    expect(site.publicUrl).toBe("https://shop.example");
    expect(siteOrigin(request("http://127.0.0.1:3000/x", { host: "127.0.0.1:3000" }), site)).toBe("https://shop.example");
  });

  it("ignores a PUBLIC_URL that is not a web address", () => {
    for (const PUBLIC_URL of ["not a url", "file:///srv/store", "   "]) {
      expect(configWith({ PUBLIC_URL }).publicUrl, PUBLIC_URL).toBeNull();
    }
  });

  it("is the Host the request came to, over the connection's scheme", () => {
    const site = configWith({});
    expect(siteOrigin(request("http://localhost:3000/x", { host: "store.example:8080" }), site)).toBe("http://store.example:8080");
  });

  it("honours X-Forwarded-Proto and X-Forwarded-Host only under TRUST_PROXY", () => {
    const forwarded = { host: "127.0.0.1:3000", "x-forwarded-proto": "https", "x-forwarded-host": "shop.example" };
    expect(siteOrigin(request("http://127.0.0.1:3000/x", forwarded), configWith({}))).toBe("http://127.0.0.1:3000");
    expect(siteOrigin(request("http://127.0.0.1:3000/x", forwarded), configWith({ TRUST_PROXY: "true" }))).toBe("https://shop.example");
  });

  it("falls back to the request's URL when the Host names no host", () => {
    expect(siteOrigin(request("http://localhost:3000/x", { host: "a@b" }), configWith({}))).toBe("http://localhost:3000");
  });
});

import { describe, expect, it } from "vitest";
import { carriesToken, metricsAnswer } from "#server/http/doors/metrics-door";
import { methodLabel, routeKindOf } from "#server/http/route-kind";
import { ConfigError, loadConfig } from "#server/config";

const TOKEN = "a-metrics-token-of-24-chars";
const configWith = (env: Record<string, string>) =>
  loadConfig({ NODE_ENV: "test", SESSION_SECRET: "test", DATA_DIR: "/nonexistent", PAYMENTS: "test", ...env });

describe("the metrics door", () => {
  it("takes exactly the Bearer token", () => {
    expect(carriesToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(carriesToken(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const header of [
      undefined,
      "",
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Bearer ${TOKEN} extra`,
    ]) {
      expect(carriesToken(header, TOKEN), String(header)).toBe(false);
    }
  });

  it("answers nothing (the store's 404 follows) without a token configured, without a scrape, or to a wrong token", async () => {
    const scrape = async () => "store_up 1\n";
    expect(await metricsAnswer(`Bearer ${TOKEN}`, null, scrape)).toBeNull();
    expect(await metricsAnswer(`Bearer ${TOKEN}`, TOKEN, null)).toBeNull();
    expect(await metricsAnswer("Bearer nope", TOKEN, scrape)).toBeNull();
    const answer = await metricsAnswer(`Bearer ${TOKEN}`, TOKEN, scrape);
    expect(answer?.status).toBe(200);
    expect(answer?.headers.get("cache-control")).toBe("no-store");
    expect(await answer?.text()).toBe("store_up 1\n");
  });
});

describe("metrics labels", () => {
  it("names the route kind, never the path", () => {
    expect(routeKindOf("/api/trpc/orders.list?batch=1", "app")).toBe("trpc");
    expect(routeKindOf("/api/cart", "app")).toBe("api");
    expect(routeKindOf("/api/products", "cache")).toBe("api");
    expect(routeKindOf("/api/cart", "door")).toBe("api");
    expect(routeKindOf("/store/12", "cache")).toBe("cached_page");
    expect(routeKindOf("/store/12", "app")).toBe("page");
    expect(routeKindOf("/checkout", "door")).toBe("memo_page");
    expect(routeKindOf("/store.data?_routes=x", "app")).toBe("page");
    expect(routeKindOf("/assets/entry-abc.js", "app")).toBe("asset");
    expect(routeKindOf("/uploads/p/1.webp", "app")).toBe("asset");
    expect(routeKindOf("/favicon.ico", "cache")).toBe("asset");
    expect(routeKindOf("/readyz", "app")).toBe("probe");
    expect(routeKindOf(undefined, "app")).toBe("page");
  });

  it("bounds the method", () => {
    expect(methodLabel("POST")).toBe("POST");
    expect(methodLabel("BREW")).toBe("other");
    expect(methodLabel("get")).toBe("other");
  });
});

describe("the metrics and shutdown settings", () => {
  it("serves no metrics by default, and drains 0 s then allows 10 s", () => {
    expect(configWith({}).metrics).toEqual({ token: null, port: null, host: "127.0.0.1" });
    expect(configWith({}).shutdown).toEqual({ drainMs: 0, timeoutMs: 10_000 });
    expect(configWith({ METRICS_TOKEN: TOKEN, METRICS_PORT: "9464", METRICS_HOST: "0.0.0.0", SHUTDOWN_DRAIN_SECONDS: "5" })).toMatchObject({
      metrics: { token: TOKEN, port: 9464, host: "0.0.0.0" },
      shutdown: { drainMs: 5000, timeoutMs: 10_000 },
    });
  });

  it("refuses a guessable token, a port that is none, and a drain that is no number", () => {
    expect(() => configWith({ METRICS_TOKEN: "short" })).toThrow(ConfigError);
    expect(() => configWith({ METRICS_TOKEN: "short" })).toThrow(/^METRICS_TOKEN must be at least 16 characters/);
    expect(() => configWith({ METRICS_PORT: "99999" })).toThrow(/^METRICS_PORT must be a port number/);
    expect(() => configWith({ SHUTDOWN_DRAIN_SECONDS: "soon" })).toThrow(/^SHUTDOWN_DRAIN_SECONDS must be a number of seconds/);
  });
});

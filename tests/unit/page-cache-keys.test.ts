// Decision 0039: the page cache's keys and memory are the store's, not a stranger's. Pages are
// keyed on the store's own origin, their path and the query parameters they read; a copy carrying
// a flash is never kept; everything is held least recently used first out under a byte budget.
// The cache is called as server.js calls it, on a request object, with a stand-in renderer that
// counts its renders.
import crypto from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import type { Visitor } from "#server/contracts/visitor";
import { NONCE_STANDIN } from "#server/http/cache/nonce-splice";
import { pageCache, type PageCacheOptions } from "#server/http/cache/page-cache";

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** Handed on (to Express in server.js) instead of answered. */
  passed: boolean;
}

type Serve = ReturnType<typeof pageCache>;

/** One request through the cache, answered in memory. */
function ask(serve: Serve, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve) => {
    const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const req = { method: "GET", url: path, headers: { host: "shop.example", ...lower } } as unknown as IncomingMessage;
    let status = 0;
    const heads: Record<string, string | string[]> = {};
    const res = {
      headersSent: false,
      writeHead(code: number, list: (string | string[])[]) {
        status = code;
        for (let i = 0; i < list.length; i += 2) heads[String(list[i]).toLowerCase()] = list[i + 1]!;
        res.headersSent = true;
        return res;
      },
      end(body?: Buffer) {
        resolve({ status, headers: heads, body: body ?? Buffer.alloc(0), passed: false });
      },
    };
    serve(req, res as unknown as ServerResponse, () => resolve({ status: 0, headers: {}, body: Buffer.alloc(0), passed: true }));
  });
}

const decoded = (answer: Answer) =>
  (answer.headers["content-encoding"] === "br"
    ? zlib.brotliDecompressSync(answer.body)
    : answer.headers["content-encoding"] === "gzip"
      ? zlib.gunzipSync(answer.body)
      : answer.body
  ).toString();

// Each cookie is a visitor: "n3" three items in the bag; "flash=<text>" a notice of that text.
function visitorOf(cookie: string): Visitor {
  const flash = /flash=([\w-]+)/.exec(cookie)?.[1];
  return {
    cartCount: Number(/n(\d+)/.exec(cookie)?.[1] ?? 0),
    user: null,
    toast: flash ? { id: flash, kind: "success", title: `Toast ${flash}` } : null,
  };
}

/** A cache in front of a renderer whose pages are `size` bytes of text around two holes. */
function cacheUnderTest(overrides: Partial<PageCacheOptions> = {}, size = 4000) {
  const rendered: string[] = [];
  let fills = 0;
  const serve = pageCache({
    match: (pathname) => /^\/(store|p\/\w+)$/.test(pathname),
    queryOf: (pathname) =>
      pathname.startsWith("/p/")
        ? { image: (value) => (Number.isSafeInteger(Number(value)) && Number(value) > 0 ? String(Number(value)) : null) }
        : undefined,
    // A clock that stands still: every page stays fresh, so a render is only ever a new key's.
    now: () => 1_000_000,
    readVersion: async () => 1,
    render: async (request) => {
      rendered.push(request.url);
      const { pathname, search } = new URL(request.url);
      // Random text compresses to about its own size, so the compressed forms weigh something.
      const filler = crypto.randomBytes(size / 2).toString("hex");
      return new Response(
        `<html><body><span data-hole="bag" style="display:contents"></span><main>${pathname}${search}</main>${filler}` +
          `<script nonce="${NONCE_STANDIN}">go()</script><span data-hole="visitor" style="display:contents"></span></body></html>`,
        { headers: { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": `script-src 'nonce-${NONCE_STANDIN}'` } },
      );
    },
    quickVisitor: (cookie) => (cookie.includes("flash") ? null : { visitor: visitorOf(cookie), setCookies: [] }),
    readVisitor: async (request) => {
      const cookie = request.headers.get("Cookie") ?? "";
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
      return { visitor: visitorOf(cookie), setCookies: cookie.includes("flash") ? ["flash=; Max-Age=0"] : [] };
    },
    fragments: (visitor) => {
      fills++;
      return {
        bag: `<a data-count="${visitor.cartCount}">bag</a>`,
        visitor: visitor.toast ? `<p class="toast">${visitor.toast.title}</p>` : "",
      };
    },
    ...overrides,
  });
  return { serve, rendered, fills: () => fills };
}

const randomWord = () => crypto.randomBytes(1 + Math.floor(Math.random() * 12)).toString("base64url");

describe("page cache keys a stranger cannot multiply", () => {
  it("serves /store from its one render to 10,000 random query strings", async () => {
    const { serve, rendered } = cacheUnderTest();
    const first = await ask(serve, "/store");
    expect(first.status).toBe(200);
    for (let i = 0; i < 10_000; i++) {
      const query = `${randomWord()}=${randomWord()}&utm_source=${randomWord()}${i % 7 === 0 ? "&%=%E0%A4%A" : ""}`;
      const answer = await ask(serve, `/store?${query}`, i % 2 ? { Cookie: "n2" } : {});
      expect(answer.status).toBe(200);
      expect(answer.body.toString()).toContain("<main>/store</main>");
      expect(answer.headers["x-page-cache"]).toBe("HIT");
    }
    expect(rendered).toEqual(["http://shop.example/store"]);
    expect(serve.stats()).toMatchObject({ pages: 1, copies: 2 });
  });

  it("keys a page on the parameters it reads, each in its canonical form, and on nothing else", async () => {
    const { serve, rendered } = cacheUnderTest();
    for (const path of ["/p/1?image=2", "/p/1?utm=x&image=02", "/p/1?image=2&image=3", "/p/1?image=+2&x=%"]) {
      expect(decoded(await ask(serve, path)), path).toContain("<main>/p/1?image=2</main>");
    }
    for (const path of ["/p/1", "/p/1?image=abc", "/p/1?image=0", "/p/1?image=", "/p/1?images=2"]) {
      expect(decoded(await ask(serve, path)), path).toContain("<main>/p/1</main>");
    }
    expect(rendered).toEqual(["http://shop.example/p/1?image=2", "http://shop.example/p/1"]);
  });

  it("renders for the first Host it saw, never for a Host each request names", async () => {
    const { serve, rendered } = cacheUnderTest();
    await ask(serve, "/store", { host: "Shop.Example:8080" });
    const hosts = ["evil.example", "a.b.c.d", "localhost", "127.0.0.1:1", "evil.example/x", "a b", "x".repeat(4000), "[::1]:3000"];
    for (let i = 0; i < 1000; i++) {
      const answer = await ask(serve, "/store", { host: i < hosts.length ? hosts[i]! : `${randomWord()}.example` });
      expect(answer.body.toString()).toContain("<main>/store</main>");
    }
    expect(rendered).toEqual(["http://shop.example:8080/store"]);
    expect(serve.stats().pages).toBe(1);
  });

  it("renders for PUBLIC_URL when it is set, whatever Host came first", async () => {
    const { serve, rendered } = cacheUnderTest({ origin: "https://shop.example" });
    await ask(serve, "/store", { host: "evil.example" });
    await ask(serve, "/store", { host: "other.example" });
    expect(rendered).toEqual(["https://shop.example/store"]);
  });

  it("keeps at most one copy per scheme, whatever X-Forwarded-Proto a client writes", async () => {
    // As under TRUST_PROXY, where the proxy's header names the scheme.
    const { serve, rendered } = cacheUnderTest({ protocolOf: (req) => String(req.headers["x-forwarded-proto"] ?? "http") });
    for (const proto of ["https", "http", "gopher", "HTTPS", "https, http", randomWord(), randomWord()]) {
      await ask(serve, "/store", { "x-forwarded-proto": proto });
    }
    expect(rendered.sort()).toEqual(["http://shop.example/store", "https://shop.example/store"]);
  });
});

describe("a copy carrying a flash", () => {
  it("is never kept, and two shoppers at once each see only their own page", async () => {
    const { serve, fills } = cacheUnderTest();
    // The flash holder and a shopper without one, interleaved, all at once (the first render is
    // still under way when every one of them arrives).
    const asks = Array.from({ length: 300 }, (_, i) =>
      i % 2
        ? ask(serve, "/store", { Cookie: `n1; flash=t${i}`, "accept-encoding": "gzip, deflate, br" }).then((answer) => ({
            who: `t${i}`,
            answer,
          }))
        : ask(serve, "/store?x=" + i, { Cookie: "n3", "accept-encoding": i % 4 ? "gzip" : "br" }).then((answer) => ({
            who: "plain",
            answer,
          })),
    );
    for (const { who, answer } of await Promise.all(asks)) {
      const page = decoded(answer);
      expect(answer.status).toBe(200);
      if (who === "plain") {
        expect(page).toContain('<a data-count="3">bag</a>');
        expect(page).not.toContain("Toast");
        expect(answer.headers["set-cookie"]).toBeUndefined();
      } else {
        expect(page).toContain('<a data-count="1">bag</a>');
        expect(page.match(/Toast t\d+/g)).toEqual([`Toast ${who}`]);
        expect(answer.headers["set-cookie"]).toEqual(["flash=; Max-Age=0"]);
      }
      expect(page).toContain("<script nonce=");
      expect(page).not.toContain(NONCE_STANDIN);
    }
    // Only the shopper without a flash has a kept copy: filled once, whatever the flashes did.
    expect(serve.stats().copies).toBe(1);
    const fillsBefore = fills();
    await ask(serve, "/store", { Cookie: "n3" });
    expect(fills()).toBe(fillsBefore);
  });
});

describe("the page cache's memory", () => {
  const PAGE = 8000;

  it("keeps a page in use while many others come and go, least recently used out first", async () => {
    const { serve, rendered } = cacheUnderTest({ budgetBytes: 12 * PAGE }, PAGE);
    await ask(serve, "/p/hot");
    for (let i = 0; i < 200; i++) {
      await ask(serve, `/p/cold${i}`);
      await ask(serve, "/p/hot");
    }
    expect(rendered.filter((url) => url.endsWith("/p/hot"))).toHaveLength(1);
    expect(rendered).toHaveLength(201);
    // The first of the others was let go long ago: asked again, it is rendered again.
    await ask(serve, "/p/cold0");
    expect(rendered).toHaveLength(202);
  });

  it("never holds more than its byte budget, the compressed forms of each copy counted", async () => {
    const budgetBytes = 30 * PAGE;
    const { serve } = cacheUnderTest({ budgetBytes }, PAGE);
    const plain = await ask(serve, "/p/one", { Cookie: "n1" });
    expect(plain.status).toBe(200);
    const identityOnly = serve.stats().bytes;
    await ask(serve, "/p/one", { Cookie: "n1", "accept-encoding": "gzip" });
    const withGzip = serve.stats().bytes;
    expect(withGzip).toBeGreaterThan(identityOnly);
    await ask(serve, "/p/one", { Cookie: "n1", "accept-encoding": "br" });
    expect(serve.stats().bytes).toBeGreaterThan(withGzip);

    let most = 0;
    for (let i = 0; i < 120; i++) {
      const asks: Record<string, string>[] = [
        { Cookie: "n1" },
        { Cookie: "n2", "accept-encoding": "gzip" },
        { "accept-encoding": "gzip, deflate, br" },
      ];
      for (const headers of asks) {
        expect((await ask(serve, `/p/page${i}`, headers)).status).toBe(200);
        const { bytes } = serve.stats();
        expect(bytes).toBeLessThanOrEqual(budgetBytes);
        most = Math.max(most, bytes);
      }
    }
    // It did fill up to near its budget, and kept a few pages rather than all of them.
    expect(most).toBeGreaterThan(budgetBytes / 2);
    expect(serve.stats().pages).toBeLessThan(30);
  });
});

describe("a page filled from its own link (decision 0051)", () => {
  const personal = () =>
    cacheUnderTest({
      personalQueryOf: (pathname) =>
        pathname === "/store" ? { orderNumber: (value) => (/^[A-Z0-9]{1,20}$/i.test(value) ? value.toUpperCase() : null) } : undefined,
    });

  it("is handed on to be rendered for its visitor alone, never served from nor kept in the cache", async () => {
    const { serve, rendered } = personal();
    expect(decoded(await ask(serve, "/store"))).toContain("<main>/store</main>");
    // Two visitors at once, each with their own order: neither gets the cached page nor the other's.
    const [alice, bob] = await Promise.all([
      ask(serve, "/store?orderNumber=AB12CD34", { Cookie: "n1" }),
      ask(serve, "/store?utm=x&orderNumber=zz99", {}),
    ]);
    expect(alice.passed).toBe(true);
    expect(bob.passed).toBe(true);
    expect(rendered).toEqual(["http://shop.example/store"]);
    expect(serve.stats()).toMatchObject({ pages: 1 });
  });

  it("is the cached page when the parameter reads as absent, so a stranger's values make no copies", async () => {
    const { serve, rendered } = personal();
    for (const path of [
      "/store?orderNumber=",
      "/store?orderNumber=%3Cscript%3E",
      `/store?orderNumber=${"A".repeat(21)}`,
      "/store?order=AB12",
    ]) {
      const answer = await ask(serve, path);
      expect(answer.passed, path).toBe(false);
      expect(decoded(answer), path).toContain("<main>/store</main>");
    }
    expect(rendered).toEqual(["http://shop.example/store"]);
  });
});

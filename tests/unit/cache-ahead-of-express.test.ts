import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { http as mswHttp, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answerCache } from "#server/http/cache/answer-cache";
import { pageCache } from "#server/http/cache/page-cache";
import { mockServer } from "../mocks/server";

// The caches as server.js mounts them (decision 0017): on node:http's own request, before any
// Express, with a fallback for what they do not answer.
let clock = 1_000_000;
let version = 1;
let productRenders = 0;
let productStatus = 200;
let productBody = JSON.stringify([{ id: 1, name: "Tee", price: 38 }, "x".repeat(2000)]);
const fullReads: string[] = [];
let base = "";
let server: http.Server;

const pages = pageCache({
  match: (p) => p === "/store",
  now: () => clock,
  readVersion: async () => version,
  render: async () =>
    new Response(`<p><span data-hole="bag" style="display:contents"></span></p>`, { headers: { "Content-Type": "text/html" } }),
  quickVisitor: (cookie) =>
    cookie.includes("flash") ? null : { visitor: { cartCount: cookie.length, user: null, toast: null }, setCookies: [] },
  readVisitor: async (request) => {
    fullReads.push(request.headers.get("Cookie")!);
    return {
      visitor: { cartCount: 99, user: null, toast: { id: "t", kind: "success", title: "Saved" } },
      setCookies: ["flash=; Max-Age=0"],
    };
  },
  fragments: (visitor) => ({ bag: `bag ${visitor.cartCount}${visitor.toast ? ` ${visitor.toast.title}` : ""}` }),
});
const products = answerCache({
  paths: ["/api/products"],
  now: () => clock,
  readVersion: async () => version,
  render: async () => {
    productRenders++;
    return new Response(productBody, { status: productStatus, headers: { "Content-Type": "application/json" } });
  },
});

beforeAll(async () => {
  server = http.createServer((req, res) =>
    pages(req, res, () =>
      products(req, res, () =>
        res.writeHead(200, { "Content-Type": "text/plain" }).end(`fallback ${req.url} ${req.headers["x-page-template"] ?? "-"}`),
      ),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());
beforeEach(() => {
  clock += 60_000;
  productRenders = 0;
  productStatus = 200;
  fullReads.length = 0;
  mockServer.use(mswHttp.all(`${base}/*`, () => passthrough()));
});

function raw(path: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject)
      .end();
  });
}

describe("the page cache ahead of Express", () => {
  it("fills a bag-only visitor from the raw Cookie header and sends a flash through the full read", async () => {
    const quick = await raw("/store", { Cookie: "cart=abc" });
    expect(quick.body.toString()).toBe('<p><span data-hole="bag" style="display:contents">bag 8</span></p>');
    const flash = await raw("/store", { Cookie: "cart=abc; flash=1" });
    expect(flash.body.toString()).toContain("bag 99 Saved");
    expect(flash.headers["set-cookie"]).toEqual(["flash=; Max-Age=0"]);
    expect(fullReads).toEqual(["cart=abc; flash=1"]);
  });

  it("hands every other request on, with the template header taken off", async () => {
    expect((await raw("/cart", { "x-page-template": "1" })).body.toString()).toBe("fallback /cart -");
    expect((await raw("/store", {}, "POST")).body.toString()).toBe("fallback /store -");
  });
});

describe("the product list's answer cache", () => {
  it("renders once per second and page version, and sends the same bytes compressed or not", async () => {
    const [plain, br, gzip] = await Promise.all([
      raw("/api/products"),
      raw("/api/products", { "Accept-Encoding": "br" }),
      raw("/api/products", { "Accept-Encoding": "gzip" }),
    ]);
    expect(productRenders).toBe(1);
    expect(plain.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(plain.headers.vary).toBe("Accept-Encoding");
    expect(plain.body.toString()).toBe(productBody);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(productBody);
    expect(zlib.gunzipSync(gzip.body).toString()).toBe(productBody);

    clock += 999;
    await raw("/api/products");
    expect(productRenders).toBe(1);
    clock += 1;
    const again = await raw("/api/products");
    expect(productRenders).toBe(2);
    expect(again.headers.etag).toBe(plain.headers.etag);
    version++;
    clock += 250;
    productBody = JSON.stringify([{ id: 1, name: "Tee", price: 30 }, "y".repeat(2000)]);
    const changed = await raw("/api/products");
    expect(changed.body.toString()).toBe(productBody);
    expect(changed.headers.etag).not.toBe(plain.headers.etag);
    expect(productRenders).toBe(3);
  });

  it("answers 304 to its ETag, HEAD without a body, and a small list uncompressed", async () => {
    productBody = "[]";
    const first = await raw("/api/products", { "Accept-Encoding": "br" });
    expect(first.headers["content-encoding"]).toBeUndefined();
    expect(first.body.toString()).toBe("[]");
    const etag = String(first.headers.etag);
    expect((await raw("/api/products", { "If-None-Match": etag })).status).toBe(304);
    const head = await raw("/api/products", {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it("keeps no answer that is not a 200 (the API answers those for a second), and leaves a query string to the API", async () => {
    productStatus = 503;
    expect((await raw("/api/products")).body.toString()).toBe("fallback /api/products -");
    expect((await raw("/api/products")).body.toString()).toBe("fallback /api/products -");
    expect(productRenders).toBe(1);
    productStatus = 200;
    clock += 1000;
    expect((await raw("/api/products")).headers["content-type"]).toBe("application/json; charset=utf-8");
    expect((await raw("/api/products?page=2")).body.toString()).toBe("fallback /api/products?page=2 -");
  });
});

import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Visitor } from "#server/contracts/visitor";
import { NONCE_STANDIN } from "#server/http/cache/nonce-splice";
import { pageCache } from "#server/http/cache/page-cache";
import { mockServer } from "../mocks/server";

// The cache in front of a stand-in renderer whose page has two holes, as server.js mounts it.
let clock = 0;
let renders = 0;
let version = 1;
let status = 200;
let setCookie = false;
let base = "";
let close: () => void;

// Each cookie value is one visitor: "n3" has three items in the bag, "flash" a notice.
const visitorOf = (cookie: string): Visitor => ({
  cartCount: Number(/n(\d+)/.exec(cookie)?.[1] ?? 0),
  user: cookie.includes("admin") ? { username: "ada", isAdmin: true } : null,
  toast: cookie.includes("flash") ? { id: "f1", kind: "success", title: "Saved" } : null,
});

beforeAll(async () => {
  const app = express();
  app.use(
    pageCache({
      match: (p) => /^\/(store|about)$/.test(p),
      now: () => clock,
      readVersion: async () => version,
      render: async (request) => {
        renders++;
        await new Promise((r) => setTimeout(r, 20));
        const headers = new Headers({
          "Content-Type": "text/html; charset=utf-8",
          "Content-Security-Policy": `script-src 'nonce-${NONCE_STANDIN}' 'strict-dynamic'`,
        });
        if (setCookie) headers.set("Set-Cookie", "x=1");
        // The render is the template by construction (the store marks it in its load context,
        // app/store-page-cache.server.ts): it must carry no visitor's cookie.
        const template = !request.headers.get("cookie");
        return new Response(
          `<html><body>${template ? "" : "NOT A TEMPLATE"}<span data-hole="bag" style="display:contents"></span><main>render ${renders} v${version}</main><span data-hole="visitor" style="display:contents"></span>${"x".repeat(3000)}<script nonce="${NONCE_STANDIN}">go()</script>${"y".repeat(3000)}<script nonce="${NONCE_STANDIN}" type="module">import "/a.js"</script></body></html>`,
          { status, headers },
        );
      },
      readVisitor: async (request) => {
        const cookie = request.headers.get("Cookie") ?? "";
        return { visitor: visitorOf(cookie), setCookies: cookie.includes("flash") ? ["flash=; Max-Age=0"] : [] };
      },
      fragments: (visitor) => ({
        bag: `<a data-count="${visitor.cartCount}">bag</a>`,
        visitor: `${visitor.user ? `<b>${visitor.user.username}</b>` : ""}${visitor.toast ? `<p class="flash">${visitor.toast.title}</p>` : ""}`,
      }),
    }),
  );
  app.get(/.*/, (req, res) => {
    res.type("html").send(`uncached ${req.path} ${req.headers["x-page-template"] ?? "-"}`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());
beforeEach(() => {
  clock += 60_000;
  renders = 0;
  status = 200;
  setCookie = false;
  mockServer.use(http.all(`${base}/*`, () => passthrough()));
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers });

describe("the page cache with holes", () => {
  it("renders once for everyone and fills each visitor's own bag, privately", async () => {
    const [alice, bob, nobody] = await Promise.all([get("/store", { Cookie: "n2" }), get("/store", { Cookie: "n5 admin" }), get("/store")]);
    expect(renders).toBe(1);
    const [a, b, n] = await Promise.all([alice.text(), bob.text(), nobody.text()]);
    expect(a).toContain('<a data-count="2">bag</a>');
    expect(a).not.toContain("ada");
    expect(b).toContain('<a data-count="5">bag</a></span><main>');
    expect(b).toContain("<b>ada</b>");
    expect(n).toContain('<a data-count="0">bag</a>');
    expect(a).not.toContain("NOT A TEMPLATE");
    expect(alice.headers.get("cache-control")).toBe("private, no-cache");
    expect(nobody.headers.get("cache-control")).toBe("public, s-maxage=1, stale-while-revalidate=5");
    expect(nobody.headers.get("vary")).toBe("Accept-Encoding, Cookie");
  });

  it("shows a flash to its owner with the cookie cleared, and to nobody else", async () => {
    const owner = await get("/store", { Cookie: "n1 flash" });
    expect(await owner.text()).toContain('<p class="flash">Saved</p>');
    expect(owner.headers.get("set-cookie")).toBe("flash=; Max-Age=0");
    const other = await get("/store", { Cookie: "n1" });
    expect(await other.text()).not.toContain("Saved");
    expect(other.headers.get("set-cookie")).toBeNull();
  });

  it("renders again after a second, or at once when the database's version moves", async () => {
    await get("/store");
    clock += 499;
    await get("/store");
    expect(renders).toBe(1);
    clock += 501;
    expect(await (await get("/store")).text()).toContain("render 2");
    version++;
    clock += 250;
    expect(await (await get("/store")).text()).toContain(`v${version}`);
    expect(renders).toBe(3);
  });

  it("renders a page in use again during its second half-second, answering the current copy meanwhile", async () => {
    await get("/store");
    clock += 500;
    expect(await (await get("/store")).text()).toContain("render 1");
    // The next copy is being rendered behind that answer; visitors keep getting the current one.
    expect(renders).toBe(2);
    await vi.waitFor(async () => expect(await (await get("/store")).text()).toContain("render 2"));
    expect(renders).toBe(2);
    // At the first copy's second, the next one (rendered at 500 ms) is answered at once, and being
    // half a second old itself, the one after it is started behind the answer.
    clock += 500;
    expect(await (await get("/store")).text()).toContain("render 2");
    expect(renders).toBe(3);
  });

  it("never keeps a render that sets a cookie or is not a 200, and renders those pages for their visitor", async () => {
    setCookie = true;
    expect(await (await get("/store", { Cookie: "n1" })).text()).toBe("uncached /store -");
    setCookie = false;
    status = 404;
    clock += 60_000;
    expect(await (await get("/about")).text()).toBe("uncached /about -");
  });

  it("leaves other pages alone and lets no visitor ask for a template", async () => {
    expect(await (await get("/cart", { Cookie: "n1", "x-page-template": "1" })).text()).toBe("uncached /cart -");
    expect(await (await get("/store.data", { Cookie: "n1" })).text()).toBe("uncached /store.data -");
    expect(renders).toBe(0);
  });

  it("answers 304 to a matching ETag, and a different bag has a different ETag", async () => {
    const first = await get("/store", { Cookie: "n2" });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"/);
    const again = await get("/store", { Cookie: "n2", "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const other = await get("/store", { Cookie: "n3", "If-None-Match": etag });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
  });

  it("sends brotli, gzip or identity as asked, the same page each time, each with its own nonce", async () => {
    const nonceOf = (policy: unknown) => /'nonce-([A-Za-z0-9+/]{24})'/.exec(String(policy))?.[1];
    const first = await get("/store", { Cookie: "n4", "Accept-Encoding": "identity" });
    const firstNonce = nonceOf(first.headers.get("Content-Security-Policy"));
    expect(firstNonce).toBeDefined();
    expect(firstNonce).not.toBe(NONCE_STANDIN);
    const plain = await first.text();
    expect(plain.match(/nonce="[^"]*"/g)).toEqual([`nonce="${firstNonce}"`, `nonce="${firstNonce}"`]);
    const nonces = new Set([firstNonce]);
    const fetchRaw = (accepted: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        void import("node:http").then(({ get: request }) =>
          request(base + "/store", { headers: { Cookie: "n4", "Accept-Encoding": accepted } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (chunk: Buffer) => chunks.push(chunk));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          }).on("error", reject),
        );
      });
    const decoded = (raw: { headers: Record<string, unknown>; body: Buffer }) =>
      raw.headers["content-encoding"] === "br"
        ? zlib.brotliDecompressSync(raw.body)
        : raw.headers["content-encoding"] === "gzip"
          ? zlib.gunzipSync(raw.body)
          : raw.body;
    const check = (raw: { headers: Record<string, unknown>; body: Buffer }) => {
      const nonce = nonceOf(raw.headers["content-security-policy"]);
      nonces.add(nonce);
      expect(decoded(raw).toString()).toBe(plain.replaceAll(firstNonce!, nonce!));
      if (raw.headers["content-encoding"]) expect(raw.body.length).toBeLessThan(plain.length / 4);
    };
    // A browser taking brotli waits the few milliseconds the copy's brotli form takes on the thread
    // pool (decision 0032), so even a new copy's first answer to it is brotli.
    const browser = await fetchRaw("gzip, deflate, br");
    expect(browser.headers["content-encoding"]).toBe("br");
    check(browser);
    const gzip = await fetchRaw("gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    check(gzip);
    const brOnly = await fetchRaw("br");
    expect(brOnly.headers["content-encoding"]).toBe("br");
    check(brOnly);
    expect(nonces.size).toBe(4);
  });
});

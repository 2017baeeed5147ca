// The render memo (app/render-memo.server.ts, decision 0018): which renders may be shared, that a
// shared render happens once per key, that the memo stays within its 64 pages, and that each answer
// gets its own nonce in the coding its browser takes.
import crypto from "node:crypto";
import zlib from "node:zlib";
import type { EntryContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { bodyFor, memoisedRender, renderMemoKey, renderMemoSize } from "#app/render-memo.server";
import { freshNonce, NONCE_STANDIN } from "#server/http/cache/nonce-splice";

/** Decision 0018: 64 pages per process, least recently used out. */
const MAX_COPIES = 64;

const LEAF = "routes/checkout";
const BAG = { bag: { lines: [{ productId: 7, name: "Drop Hoodie", quantity: 1 }], totalCents: 12000 } };

interface ContextParts {
  loaderData?: Record<string, unknown>;
  actionData?: Record<string, unknown> | null;
  errors?: Record<string, unknown> | null;
  /** The leaf route's `handle` (given as undefined: a route without one). */
  leafHandle?: unknown;
  rootHandle?: unknown;
}

/** What Remix hands entry.server for a page: the matched routes, their data, their modules. */
function entryContext(parts: ContextParts = {}): EntryContext {
  const { loaderData = { root: { visitor: null }, [LEAF]: BAG }, actionData = null, errors = null, rootHandle } = parts;
  // A page that reads ?step= (decision 0039: the memo keys only on the parameters a page reads).
  const leafHandle = "leafHandle" in parts ? parts.leafHandle : { sameDataSamePage: true, query: ["step"] };
  return {
    staticHandlerContext: { loaderData, actionData, errors, matches: [{ route: { id: "root" } }, { route: { id: LEAF } }] },
    routeModules: { root: { handle: rootHandle }, [LEAF]: { handle: leafHandle } },
  } as unknown as EntryContext;
}

const get = (url = "http://shop.example/checkout", init: RequestInit = {}) => new Request(url, init);

describe("renderMemoKey: which renders may be shared", () => {
  it("keys a 200 GET or HEAD of a route whose handle says sameDataSamePage", () => {
    expect(renderMemoKey(get(), 200, entryContext())).toEqual(expect.any(String));
    expect(renderMemoKey(get(undefined, { method: "HEAD" }), 200, entryContext())).toEqual(expect.any(String));
  });

  it("is null for a POST, whatever else holds", () => {
    expect(renderMemoKey(get(undefined, { method: "POST", body: "x=1" }), 200, entryContext())).toBeNull();
  });

  it("is null for any answer but 200", () => {
    for (const status of [201, 204, 302, 400, 404, 500]) expect(renderMemoKey(get(), status, entryContext()), String(status)).toBeNull();
  });

  it("is null with action data or errors", () => {
    expect(renderMemoKey(get(), 200, entryContext({ actionData: { [LEAF]: { ok: false } } }))).toBeNull();
    expect(renderMemoKey(get(), 200, entryContext({ errors: { [LEAF]: new Error("boom") } }))).toBeNull();
  });

  it("is null when the leaf route's handle does not say sameDataSamePage, even if the root's does", () => {
    for (const leafHandle of [undefined, {}, { sameDataSamePage: false }]) {
      expect(renderMemoKey(get(), 200, entryContext({ leafHandle, rootHandle: { sameDataSamePage: true } }))).toBeNull();
    }
  });

  it("is the same for the same path, query and loader data, whoever asks, and differs when any of them does", () => {
    const key = renderMemoKey(get("http://shop.example/checkout?step=1"), 200, entryContext());
    // Another shopper with the same bag: other cookies and headers, the same page.
    const same = renderMemoKey(
      get("http://shop.example/checkout?step=1", { headers: { Cookie: "cart=someone-else", "Accept-Encoding": "gzip" } }),
      200,
      entryContext({ loaderData: { root: { visitor: null }, [LEAF]: structuredClone(BAG) } }),
    );
    expect(same).toBe(key);

    const others = [
      renderMemoKey(get("http://shop.example/cart?step=1"), 200, entryContext()),
      renderMemoKey(get("http://shop.example/checkout?step=2"), 200, entryContext()),
      renderMemoKey(get("http://shop.example/checkout"), 200, entryContext()),
      renderMemoKey(
        get("http://shop.example/checkout?step=1"),
        200,
        entryContext({ loaderData: { root: { visitor: null }, [LEAF]: { bag: { ...BAG.bag, totalCents: 12001 } } } }),
      ),
      renderMemoKey(
        get("http://shop.example/checkout?step=1"),
        200,
        entryContext({ loaderData: { root: { visitor: { name: "admin" } }, [LEAF]: BAG } }),
      ),
    ];
    for (const other of others) expect(other).not.toBe(key);
    expect(new Set(others).size).toBe(others.length);
  });

  it("is null when the query holds a parameter the page does not read: rendered for that request alone (decision 0039)", () => {
    expect(renderMemoKey(get("http://shop.example/checkout?step=1"), 200, entryContext())).toEqual(expect.any(String));
    for (const url of [
      "http://shop.example/checkout?x=1",
      "http://shop.example/checkout?step=1&utm_source=mail",
      `http://shop.example/checkout?${crypto.randomUUID()}=1`,
    ]) {
      expect(renderMemoKey(get(url), 200, entryContext()), url).toBeNull();
    }
    // The store's /checkout and /cart read no parameter at all.
    expect(
      renderMemoKey(get("http://shop.example/checkout?step=1"), 200, entryContext({ leafHandle: { sameDataSamePage: true } })),
    ).toBeNull();
    expect(renderMemoKey(get("http://shop.example/checkout"), 200, entryContext({ leafHandle: { sameDataSamePage: true } }))).toEqual(
      expect.any(String),
    );
  });

  it("is null when the visitor carries a flash: one visitor's page, shown once, is never kept", () => {
    const toast = { id: crypto.randomUUID(), kind: "success", title: "Saved" };
    const withFlash = entryContext({ loaderData: { root: { visitor: { cartCount: 1, user: null, toast } }, [LEAF]: BAG } });
    expect(renderMemoKey(get(), 200, withFlash)).toBeNull();
    const without = entryContext({ loaderData: { root: { visitor: { cartCount: 1, user: null, toast: null } }, [LEAF]: BAG } });
    expect(renderMemoKey(get(), 200, without)).toEqual(expect.any(String));
  });
});

/** A `render` that counts its calls and resolves a moment later, as React would. */
function countedRender(html = "<!DOCTYPE html><p>page</p>") {
  const counter = {
    calls: 0,
    render: async () => {
      counter.calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return Buffer.from(html);
    },
  };
  return counter;
}

// The memo lives for the process: each test uses keys of its own.
const keyOf = (name: string) => `${name}-${crypto.randomUUID()}`;

describe("memoisedRender: one render per key", () => {
  it("renders once for concurrent first requests and for later ones with the same key", async () => {
    const counter = countedRender();
    const key = keyOf("same");
    const copies = await Promise.all([1, 2, 3, 4].map(() => memoisedRender(key, counter.render)));
    expect(counter.calls).toBe(1);
    for (const copy of copies) expect(copy).toBe(copies[0]);
    expect(await memoisedRender(key, counter.render)).toBe(copies[0]);
    expect(counter.calls).toBe(1);
  });

  it("renders again for another key", async () => {
    const counter = countedRender();
    await memoisedRender(keyOf("first"), counter.render);
    await memoisedRender(keyOf("second"), counter.render);
    expect(counter.calls).toBe(2);
  });

  it("keeps no failed render: the next request renders again", async () => {
    const key = keyOf("failing");
    let calls = 0;
    const failing = async () => {
      calls += 1;
      throw new Error("render failed");
    };
    await expect(memoisedRender(key, failing)).rejects.toThrow("render failed");
    await expect(memoisedRender(key, failing)).rejects.toThrow("render failed");
    expect(calls).toBe(2);
  });

  it(`keeps at most ${MAX_COPIES} pages, the least recently used going first`, async () => {
    const counter = countedRender();
    const keys = Array.from({ length: MAX_COPIES }, (_, i) => keyOf(`page-${i}`));
    for (const key of keys) await memoisedRender(key, counter.render);
    expect(counter.calls).toBe(MAX_COPIES);
    expect(renderMemoSize()).toBe(MAX_COPIES);

    // The oldest page is asked for again (a hit, now the most recent); one page more pushes out
    // the least recently used, which is now the second.
    await memoisedRender(keys[0]!, counter.render);
    expect(counter.calls).toBe(MAX_COPIES);
    await memoisedRender(keyOf("one-more"), counter.render);
    expect(counter.calls).toBe(MAX_COPIES + 1);
    expect(renderMemoSize()).toBe(MAX_COPIES);

    await memoisedRender(keys[0]!, counter.render);
    expect(counter.calls, "the page used a moment ago is still kept").toBe(MAX_COPIES + 1);
    await memoisedRender(keys[1]!, counter.render);
    expect(counter.calls, "the least recently used page was let go and is rendered again").toBe(MAX_COPIES + 2);
    expect(renderMemoSize()).toBe(MAX_COPIES);
  });
});

describe("bodyFor: each answer's bytes", () => {
  // A page shaped like the store's: the nonce in several scripts, enough text to compress.
  const html =
    `<!DOCTYPE html><html><head><script nonce="${NONCE_STANDIN}">window.a=1</script></head><body>` +
    "<p>Legacy drop: one hoodie in the bag, $120.00.</p>".repeat(200) +
    `<link rel="modulepreload" nonce="${NONCE_STANDIN}" href="/assets/x.js"/><script nonce="${NONCE_STANDIN}">window.b=2</script></body></html>`;
  const answer = async (acceptEncoding: string | null) => {
    const copy = await memoisedRender(keyOf("body"), async () => Buffer.from(html));
    const nonce = freshNonce();
    const headers = new Headers();
    const request = get("http://shop.example/checkout", { headers: acceptEncoding === null ? {} : { "Accept-Encoding": acceptEncoding } });
    const body = bodyFor(copy, request, headers, nonce);
    return { body, headers, nonce, expected: html.replaceAll(NONCE_STANDIN, nonce) };
  };

  it("sends brotli to a browser that takes it, with this answer's nonce at every stand-in", async () => {
    const { body, headers, nonce, expected } = await answer("gzip, deflate, br");
    expect(headers.get("Content-Encoding")).toBe("br");
    expect(headers.get("Vary")).toContain("Accept-Encoding");
    const page = zlib.brotliDecompressSync(body).toString();
    expect(page).toBe(expected);
    expect(page.split(nonce)).toHaveLength(4);
    expect(page).not.toContain(NONCE_STANDIN);
  });

  it("sends gzip to a browser that takes only gzip", async () => {
    const { body, headers, expected } = await answer("gzip");
    expect(headers.get("Content-Encoding")).toBe("gzip");
    expect(headers.get("Vary")).toContain("Accept-Encoding");
    expect(zlib.gunzipSync(body).toString()).toBe(expected);
  });

  it("sends the page as it is without Accept-Encoding", async () => {
    const { body, headers, expected } = await answer(null);
    expect(headers.get("Content-Encoding")).toBeNull();
    expect(headers.get("Vary")).toContain("Accept-Encoding");
    expect(body.toString()).toBe(expected);
  });

  it("gives two answers from one copy two nonces", async () => {
    const copy = await memoisedRender(keyOf("two-answers"), async () => Buffer.from(html));
    const pages = [freshNonce(), freshNonce()].map((nonce) => {
      const body = bodyFor(copy, get(undefined, { headers: { "Accept-Encoding": "br" } }), new Headers(), nonce);
      return { nonce, page: zlib.brotliDecompressSync(body).toString() };
    });
    expect(pages[0]!.nonce).not.toBe(pages[1]!.nonce);
    for (const { nonce, page } of pages) expect(page).toBe(html.replaceAll(NONCE_STANDIN, nonce));
  });
});

describe("the routes that opt in", () => {
  it("/checkout and /cart declare sameDataSamePage", async () => {
    const [checkout, cart] = await Promise.all([import("#app/routes/checkout"), import("#app/routes/cart")]);
    expect(checkout.handle).toEqual({ sameDataSamePage: true });
    expect(cart.handle).toEqual({ sameDataSamePage: true });
  });
});

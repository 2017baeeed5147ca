import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anonymousPageCache } from "../../server/http/page-cache";
import { mockServer } from "../mocks/server";

// The cache in front of a stand-in page handler, behind compression, as server.js mounts it.
let clock = 0;
let renders = 0;
let base = "";
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use(compression());
  app.use(anonymousPageCache({ match: (p) => /^\/store(\/\d+)?$/.test(p), ttlMs: 1000, now: () => clock }));
  app.get(/.*/, async (req, res) => {
    renders++;
    // Rendering takes a moment, so concurrent visitors overlap.
    await new Promise((r) => setTimeout(r, 30));
    if (req.query.cookie) res.setHeader("Set-Cookie", "cart=abc; HttpOnly");
    if (req.query.private) res.setHeader("Cache-Control", "private, no-store");
    res.status(req.query.missing ? 404 : 200).type("html");
    res.write(`<!doctype html><p>render ${renders} of ${req.path}</p>`);
    res.end("<footer>" + "x".repeat(4000) + "</footer>");
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
  // The test's own server on loopback is real HTTP, not a vendor to mock.
  mockServer.use(http.all(`${base}/*`, () => passthrough()));
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers: { "Accept-Encoding": "gzip", ...headers } });

describe("the anonymous page cache", () => {
  it("renders /store once per second for visitors without cookies, and the copy is the same page, compressed", async () => {
    const first = await get("/store");
    const second = await get("/store");
    expect(renders).toBe(1);
    expect(second.headers.get("x-page-cache")).toBe("HIT");
    expect(second.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(second.headers.get("content-encoding")).toBe("gzip");
    expect(await second.text()).toBe(await first.text());

    clock += 999;
    await get("/store");
    expect(renders).toBe(1);
    clock += 1;
    expect(await (await get("/store")).text()).toContain("render 2 of /store");
  });

  it("lets concurrent first visitors wait for one render", async () => {
    const pages = await Promise.all(Array.from({ length: 25 }, () => get("/store/7").then((r) => r.text())));
    expect(renders).toBe(1);
    expect(new Set(pages).size).toBe(1);
  });

  it("never serves or stores anything for a visitor with cookies", async () => {
    await get("/store");
    const withBag = await get("/store", { Cookie: "cart=mine" });
    expect(withBag.headers.get("x-page-cache")).toBeNull();
    expect(await withBag.text()).toContain("render 2");
    await get("/store", { Cookie: "cart=mine" });
    expect(renders).toBe(3);
  });

  it("stores no answer that sets a cookie, is private, or is not a 200, and no other path", async () => {
    for (const query of ["?cookie=1", "?private=1", "?missing=1"]) {
      await get(`/store${query}`);
      const again = await get(`/store${query}`);
      expect(again.headers.get("x-page-cache"), query).toBeNull();
    }
    expect(renders).toBe(6);
    await get("/checkout");
    await get("/checkout");
    await get("/store.data");
    await get("/store.data");
    expect(renders).toBe(10);
  });

  it("keeps query strings apart", async () => {
    await get("/store?page=1");
    expect(await (await get("/store?page=2")).text()).toContain("render 2");
    expect(renders).toBe(2);
  });
});

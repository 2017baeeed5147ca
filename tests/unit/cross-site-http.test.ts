import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { refuseCrossSiteWrites } from "#server/http/requests/origin";
import type { SiteAddressing } from "#server/http/requests/site-origin";
import { mockServer } from "../mocks/server";

// The guard in front of a stand-in for Remix, mounted as server.js mounts it, over real HTTP.
let writes = 0;
const servers: Server[] = [];

async function storeOn(site: SiteAddressing): Promise<number> {
  const app = express();
  if (site.trustProxy) app.set("trust proxy", true);
  app.use(refuseCrossSiteWrites(site));
  app.all(/.*/, (req, res) => {
    if (req.method !== "GET") writes++;
    res.json({ ok: true, origin: req.headers.origin ?? null });
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((r) => server.once("listening", r));
  return (server.address() as AddressInfo).port;
}

/** node:http rather than fetch: a browser's Origin and Sec-Fetch-Site are set by hand here. */
function send(port: number, method: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, method, path: "/api/logout", headers }, (response) => {
      let text = "";
      response.on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    request.on("error", reject);
    request.end();
  });
}

let plain = 0;
let proxied = 0;
let published = 0;
beforeAll(async () => {
  plain = await storeOn({ publicUrl: null, trustProxy: 0 });
  proxied = await storeOn({ publicUrl: null, trustProxy: 1 });
  published = await storeOn({ publicUrl: "https://shop.example", trustProxy: 0 });
});
afterAll(() => servers.forEach((server) => server.close()));
beforeEach(() => {
  writes = 0;
  // The test's own servers on loopback are real HTTP, not a vendor to mock.
  mockServer.use(http.all("http://127.0.0.1:*/*", () => passthrough()));
});

const refusal = { message: "Cross-site requests are not allowed.", errors: {} };

describe("cross-site writes over HTTP", () => {
  it("refuses a form posted from another site before the app sees it", async () => {
    const answer = await send(plain, "POST", { origin: "https://evil.example" });
    expect(answer).toEqual({ status: 403, body: refusal });
    expect(writes).toBe(0);
  });

  it("refuses https://<this host:port> on the plain-http store", async () => {
    const answer = await send(plain, "POST", { origin: `https://127.0.0.1:${plain}` });
    expect(answer).toEqual({ status: 403, body: refusal });
    expect(writes).toBe(0);
  });

  it("refuses what the browser calls cross-site, even without Origin", async () => {
    expect((await send(plain, "DELETE", { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect(writes).toBe(0);
  });

  it("takes a no-referrer page's own form post (Origin: null, same-origin), refuses any other opaque origin", async () => {
    expect((await send(plain, "POST", { origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect(writes).toBe(1);
    expect(await send(plain, "POST", { origin: "null" })).toEqual({ status: 403, body: refusal });
    expect(await send(plain, "POST", { origin: "null", "sec-fetch-site": "cross-site" })).toEqual({ status: 403, body: refusal });
    expect(await send(plain, "POST", { origin: "null", "sec-fetch-site": "same-site" })).toEqual({ status: 403, body: refusal });
    expect(await send(plain, "POST", { origin: "null", "sec-fetch-site": "none" })).toEqual({ status: 403, body: refusal });
    expect(writes).toBe(1);
  });

  it("lets the store's own pages, callers without Origin and reads through", async () => {
    const own = await send(plain, "POST", { origin: `http://127.0.0.1:${plain}`, "sec-fetch-site": "same-origin" });
    // Vouched for, the Origin goes no further: Remix's own check would read it against other headers.
    expect(own).toEqual({ status: 200, body: { ok: true, origin: null } });
    expect((await send(plain, "POST", {})).status).toBe(200);
    expect((await send(plain, "GET", { origin: "https://evil.example", "sec-fetch-site": "cross-site" })).status).toBe(200);
    expect(writes).toBe(2);
  });

  it("takes the scheme from X-Forwarded-Proto under TRUST_PROXY only", async () => {
    const viaProxy = (port: number) => ({ origin: `https://127.0.0.1:${port}`, "x-forwarded-proto": "https" });
    expect((await send(proxied, "POST", viaProxy(proxied))).status).toBe(200);
    expect((await send(plain, "POST", viaProxy(plain))).status).toBe(403);
    expect((await send(proxied, "POST", { origin: `http://127.0.0.1:${proxied}`, "x-forwarded-proto": "https" })).status).toBe(403);
  });

  it("compares with PUBLIC_URL when set", async () => {
    expect((await send(published, "POST", { origin: "https://shop.example" })).status).toBe(200);
    expect((await send(published, "POST", { origin: `http://127.0.0.1:${published}` })).status).toBe(403);
  });
});

import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { precompressAssets } from "../../scripts/precompress-assets.mjs";
import { staticAssets } from "#server/http/cache/static-assets";
import { mockServer } from "../mocks/server";

// A build's assets folder, precompressed by the post-build step, served as server.js mounts it;
// compression() in front of it as well, to show it leaves the precompressed answers alone.
const script = `export const greeting = ${JSON.stringify("hello drop day ".repeat(400))};\n`;
const font = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) % 256));
let dir = "";
let base = "";
let close: () => void;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "static-assets-"));
  fs.writeFileSync(path.join(dir, "entry-Ab12.js"), script);
  fs.writeFileSync(path.join(dir, "font-Cd34.woff2"), font);
  fs.writeFileSync(path.join(dir, "empty-Ef56.js"), "\n");
  precompressAssets(dir);

  const app = express();
  app.use(compression());
  app.use("/assets", staticAssets(dir));
  // What server.js has next: the rest of the client build, from disk.
  app.use("/assets", express.static(dir, { maxAge: "1h" }));
  app.use((_req, res) => void res.status(404).send("fell through"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => {
  close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  mockServer.use(http.all(`${base}/*`, () => passthrough()));
});

const get = (name: string, headers: Record<string, string> = {}) => fetch(`${base}/assets/${name}`, { headers });

describe("the post-build step", () => {
  it("writes .br and .gz beside text assets, not beside fonts, and not when they would not be smaller", () => {
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(["empty-Ef56.js", "entry-Ab12.js", "entry-Ab12.js.br", "entry-Ab12.js.gz", "font-Cd34.woff2"]);
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, "entry-Ab12.js.br"))).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, "entry-Ab12.js.gz"))).toString()).toBe(script);
  });
});

describe("hashed assets from memory", () => {
  it("sends the build's brotli file to a browser that takes brotli, cached for a year", async () => {
    const response = await get("entry-Ab12.js", { "Accept-Encoding": "gzip, deflate, br" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("content-length")).toBe(String(fs.statSync(path.join(dir, "entry-Ab12.js.br")).size));
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("etag")).toMatch(/^"[\w-]+-br"$/);
    expect(await response.text()).toBe(script);
  });

  it("sends gzip when the browser prefers it or takes nothing better, and the plain file when it takes neither", async () => {
    const gz = await get("entry-Ab12.js", { "Accept-Encoding": "br;q=0.5, gzip" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("content-length")).toBe(String(fs.statSync(path.join(dir, "entry-Ab12.js.gz")).size));
    expect(await gz.text()).toBe(script);

    const onlyGzip = await get("entry-Ab12.js", { "Accept-Encoding": "gzip" });
    expect(onlyGzip.headers.get("content-encoding")).toBe("gzip");

    const plain = await get("entry-Ab12.js", { "Accept-Encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("content-length")).toBe(String(Buffer.byteLength(script)));
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expect(await plain.text()).toBe(script);

    const refused = await get("entry-Ab12.js", { "Accept-Encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers.get("content-encoding")).toBeNull();
  });

  it("sends an already compressed font as it is, with no Vary, and compression() does not touch it", async () => {
    const response = await get("font-Cd34.woff2", { "Accept-Encoding": "br, gzip" });
    expect(response.headers.get("content-type")).toBe("font/woff2");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("vary")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(font);
  });

  it("answers 304 to a browser that has the same representation, and 200 to one that has another", async () => {
    const first = await get("entry-Ab12.js", { "Accept-Encoding": "br" });
    const etag = first.headers.get("etag")!;
    await first.arrayBuffer();

    const again = await get("entry-Ab12.js", { "Accept-Encoding": "br", "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(await again.text()).toBe("");

    const otherEncoding = await get("entry-Ab12.js", { "Accept-Encoding": "gzip", "If-None-Match": etag });
    expect(otherEncoding.status).toBe(200);
    expect(await otherEncoding.text()).toBe(script);
  });

  it("answers HEAD with the headers only", async () => {
    const response = await fetch(`${base}/assets/entry-Ab12.js`, { method: "HEAD", headers: { "Accept-Encoding": "br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(await response.text()).toBe("");
  });

  it("lets a name it does not know fall through to the next handler", async () => {
    const response = await get("missing-Zz99.js");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("fell through");
  });

  it("never asks the file system during a request (while the disk handler after it does)", async () => {
    const calls = [
      vi.spyOn(fs, "stat"),
      vi.spyOn(fs, "statSync"),
      vi.spyOn(fs, "lstat"),
      vi.spyOn(fs.promises, "stat"),
      vi.spyOn(fs, "open"),
      vi.spyOn(fs, "readFile"),
      vi.spyOn(fs, "readFileSync"),
      vi.spyOn(fs, "createReadStream"),
    ];
    const count = () => calls.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    try {
      for (const encoding of ["br", "gzip", "identity"]) {
        await (await get("entry-Ab12.js", { "Accept-Encoding": encoding })).arrayBuffer();
        await (await get("font-Cd34.woff2", { "Accept-Encoding": encoding })).arrayBuffer();
      }
      expect(count()).toBe(0);

      // The spies do see file system work: a .br asked for by name is served from disk by the next handler.
      await (await get("entry-Ab12.js.br")).arrayBuffer();
      expect(count()).toBeGreaterThan(0);
    } finally {
      for (const spy of calls) spy.mockRestore();
    }
  });
});

import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import express from "express";
import { http as mock, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiWriteRequestOf } from "#server/api/node-exchange";
import { apiWriteDoor, isApiWrite, writeLaneFor } from "#server/api/write-door";
import { isPostgres } from "#db/engine";
import { BODY_LIMITS, bodyInHand, readText } from "#server/http/requests/request-body";
import { writeLane } from "#server/http/write-lane";
import { STORE_BUSY_MESSAGE } from "#server/contracts/store-busy";
import { CART_MESSAGES } from "#server/contracts/cart-view";
import { useAppContextForTests } from "#server/boot";
import { ensureAdmin } from "#server/services/accounts/users";
import { mockServer } from "../mocks/server";
import { createTestContext } from "../setup/context";
import { CookieJar } from "../setup/http";
import { imageUpload, signedStripeEvent } from "./api-over-http";
import { addProduct } from "./store-helpers";

// The API's writes answered on node's own request, as server.js's fast path does (decision 0056),
// one trusted proxy in front: everything Express gave them (the cross-site check, the client
// address, the raw body, compression of a large answer) without Express. Reads go to a stand-in.
const WEBHOOK_SECRET = "whsec_write_door";
const ctx = createTestContext({
  TRUST_PROXY: "1",
  STRIPE_SECRET_KEY: "sk_test_write_door",
  STRIPE_PUBLISHABLE_KEY: "pk_test_write_door",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
});
let base = "";
let server: http.Server;
let elsewhere = 0;
let admin = "";

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  const writes = apiWriteDoor(ctx);
  const app = express();
  app.all(/.*/, (_req, res) => {
    elsewhere++;
    res.type("html").send("<p>Express</p>");
  });
  server = http.createServer((req, res) => (isApiWrite(req) ? writes(req, res) : app(req, res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  // The test's own server on loopback is real HTTP, not a vendor to mock.
  mockServer.use(mock.all(`${base}/*`, () => passthrough()));
  if (!admin) {
    const login = await post("/api/login", { username: "boss", password: "boss-password" });
    expect(login.status).toBe(200);
    admin = login.headers.getSetCookie()[0]!.split(";")[0]!;
  }
});

function post(route: string, body: unknown, headers: Record<string, string> = {}, jar?: CookieJar) {
  return fetch(`${base}${route}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(jar ? { Cookie: jar.header() } : {}), ...headers },
    body: JSON.stringify(body),
  });
}

describe("the API's write door", () => {
  it("paces the writes in a lane on SQLite only: on PostgreSQL they run as they come (decision 0065)", () => {
    expect(writeLaneFor(ctx) === null).toBe(isPostgres(ctx.db));
  });

  it('answers a write 503 "store busy" and changes nothing when too many wait their turn, but takes a streamed one', async () => {
    const id = await addProduct(ctx, { name: "Queued Tee" });
    // A lane with no room: every write is one too many (decision 0065).
    const full = apiWriteDoor(ctx, writeLane({ waitingLimit: 0 }));
    const crowded = http.createServer((req, res) => full(req, res));
    await new Promise<void>((resolve) => crowded.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(crowded.address() as AddressInfo).port}`;
    mockServer.use(mock.all(`${at}/*`, () => passthrough()));
    try {
      const busy = await fetch(`${at}/api/cart`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ productId: id, quantity: 1 }),
      });
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("3");
      expect(await busy.json()).toEqual({ message: STORE_BUSY_MESSAGE, errors: {} });
      expect(busy.headers.getSetCookie()).toEqual([]);
      expect(await ctx.db.selectFrom("cartItems").select("id").where("productId", "=", id).execute()).toEqual([]);

      // A body still streaming in does not take turns (a slow sender would hold the lane): taken.
      const report = await fetch(`${at}/api/csp-report`, {
        method: "POST",
        headers: { "Content-Type": "application/csp-report" },
        body: JSON.stringify({ "csp-report": { "document-uri": "http://127.0.0.1/store", "violated-directive": "img-src" } }),
      });
      expect(report.status).toBe(204);
    } finally {
      await new Promise((resolve) => crowded.close(resolve));
    }
  });

  it("takes only writes to /api: reads, look-alike paths and pages go on to Express", async () => {
    expect((await fetch(`${base}/api/cart`)).status).toBe(200);
    expect((await fetch(`${base}/apiary`, { method: "POST" })).status).toBe(200);
    expect((await fetch(`${base}/cart`, { method: "POST" })).status).toBe(200);
    expect(elsewhere).toBe(3);
    const unknown = await post("/api/nope?x=1", {});
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "No API route for POST /api/nope.", errors: {} });
    expect(elsewhere).toBe(3);
  });

  it("adds to the bag with a small answer sent whole, and compresses a large one as the browser accepts", async () => {
    const jar = new CookieJar();
    const first = await addProduct(ctx, { name: "Door Tee", priceCents: 3000 });
    const added = await post("/api/cart", { productId: first, quantity: 1 }, { "Accept-Encoding": "gzip, br" }, jar);
    expect([200, 201]).toContain(added.status);
    expect(added.headers.get("content-encoding")).toBeNull();
    // As Express's res.append wrote it, which these answers went through before.
    expect(added.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const text = await added.text();
    expect(added.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toMatchObject({ count: 1, totalPrice: 30 });
    jar.store(added);
    expect(jar.header()).not.toBe("");

    let last: Response | undefined;
    for (let i = 0; i < 8; i++) {
      const id = await addProduct(ctx, { name: `Door Hoodie with a long enough name, number ${i}`, priceCents: 5000 });
      // node:http here, not fetch: fetch would decode the answer before the test could see its bytes.
      last = await rawPost("/api/cart", { productId: id, quantity: 1 }, { "Accept-Encoding": "br", Cookie: jar.header() });
    }
    expect(last!.status).toBe(201);
    expect(last!.headers.get("content-encoding")).toBe("br");
    expect(last!.headers.get("vary")).toBe("Accept-Encoding");
    const bytes = Buffer.from(await last!.arrayBuffer());
    expect(last!.headers.get("content-length")).toBe(String(bytes.length));
    const bag = JSON.parse(zlib.brotliDecompressSync(bytes).toString("utf8"));
    expect(bag).toMatchObject({ count: 9, totalPrice: 30 + 8 * 50 });
  });

  it("sends the API's JSON answers as a fetch Response sent them: cookie, privacy, error (decision 0069)", async () => {
    const jar = new CookieJar();
    const tee = await addProduct(ctx, { name: "Answer Tee", priceCents: 2500 });
    const added = await post("/api/cart", { productId: tee, quantity: 1 }, {}, jar);
    expect(added.status).toBe(201);
    expect(added.headers.get("cache-control")).toBe("private, no-store");
    expect(added.headers.getSetCookie()).toHaveLength(1);
    expect(added.headers.getSetCookie()[0]).toMatch(/; HttpOnly; SameSite=Lax/);
    jar.store(added);
    const again = await post("/api/cart", { productId: tee, quantity: 1 }, {}, jar);
    expect(again.status).toBe(200);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(await again.json()).toMatchObject({ count: 2, totalPrice: 50 });

    const gone = await addProduct(ctx, { name: "Gone Tee", priceCents: 2500, inventory: 0 });
    const refused = await post("/api/cart", { productId: gone, quantity: 1 }, {}, jar);
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await refused.json()).toEqual({ message: CART_MESSAGES.soldOut, errors: {} });
    const bag = await ctx.db.selectFrom("cartItems").select("productId").where("productId", "=", gone).execute();
    expect(bag).toEqual([]);
  });

  it("refuses a write another site's page sends, before the API sees it, and takes the store's own", async () => {
    const id = await addProduct(ctx, { name: "Guarded Tee" });
    const jar = new CookieJar();
    const forged = await post("/api/cart", { productId: id, quantity: 1 }, { Origin: "http://evil.example" }, jar);
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({ message: "Cross-site requests are not allowed.", errors: {} });
    expect(forged.headers.getSetCookie()).toEqual([]);
    const crossSite = await post("/api/cart", { productId: id, quantity: 1 }, { "Sec-Fetch-Site": "cross-site" }, jar);
    expect(crossSite.status).toBe(403);
    expect(await ctx.db.selectFrom("cartItems").select("id").where("productId", "=", id).execute()).toEqual([]);

    // Behind the trusted proxy, the browser's origin is the proxy's X-Forwarded-Proto and -Host.
    const own = await post(
      "/api/cart",
      { productId: id, quantity: 1 },
      { Origin: "https://shop.example", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "shop.example" },
      jar,
    );
    expect([200, 201]).toContain(own.status);
    expect(await ctx.db.selectFrom("cartItems").select("id").where("productId", "=", id).execute()).toHaveLength(1);
  });

  it("rate-limits by the address the trusted proxy reports, not by what the client wrote ahead of it", async () => {
    const message = {
      name: "Rosa",
      email: "rosa@example.com",
      subject: "Where is it",
      message: "My parcel has not arrived yet.",
      supportType: "shipping",
    };
    // The client writes a new address each time; the proxy appends the one it saw, always the same.
    const contact = (i: number) => post("/api/support/contact", message, { "X-Forwarded-For": `10.0.0.${i}, 198.51.100.30` });
    for (let i = 0; i < 5; i++) expect((await contact(i)).status).toBe(201);
    const limited = await contact(9);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await post("/api/support/contact", message, { "X-Forwarded-For": "198.51.100.31" })).status).toBe(201);
  });

  it("hands a webhook its raw body, so Stripe's signature checks out", async () => {
    const event = signedStripeEvent("evt_write_door_1", "sk_test_write_door", WEBHOOK_SECRET);
    const response = await fetch(`${base}/api/webhooks/stripe`, { method: "POST", ...event });
    expect(response.status).toBe(200);
    expect(await ctx.db.selectFrom("paymentEvents").select("id").where("id", "=", "evt_write_door_1").executeTakeFirst()).toBeTruthy();
  });

  it("streams a multipart upload to disk and keeps its size check", async () => {
    const { headers, body } = await imageUpload(admin, "#345678");
    const uploaded = await fetch(`${base}/api/admin/upload-product-image`, { method: "POST", headers, body });
    expect(uploaded.status).toBe(201);
    const { imageUrl } = (await uploaded.json()) as { imageUrl: string };
    expect(fs.existsSync(path.join(ctx.config.uploadsDir, imageUrl.replace(/^\/uploads\//, "")))).toBe(true);

    const tooLarge = await fetch(`${base}/api/admin/upload-product-image`, {
      method: "POST",
      headers: { ...headers, "Content-Length": String(6 * 1024 * 1024) },
      body: new Uint8Array(6 * 1024 * 1024),
    });
    expect(tooLarge.status).toBe(413);
  });

  it("answers a body over the limit 413 and broken JSON 400, changing nothing", async () => {
    const id = await addProduct(ctx, { name: "Bounded Tee" });
    const huge = await fetch(`${base}/api/cart`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ productId: id, quantity: 1, pad: "x".repeat(70 * 1024) }),
    });
    expect(huge.status).toBe(413);
    const broken = await fetch(`${base}/api/cart`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{" });
    expect(broken.status).toBe(400);
    expect(await ctx.db.selectFrom("cartItems").select("id").where("productId", "=", id).execute()).toEqual([]);
  });
});

describe("a small JSON body read ahead of the API table", () => {
  it("is the body every reader gets, whether it came in one piece, in several, or chunked", async () => {
    const id = await addProduct(ctx, { name: "Ahead Tee", priceCents: 2000 });
    // Declared, sent in three writes: the door waits for all of it.
    const pieces = await socketPost("/api/cart", ['{"productId":', `${id},"quan`, 'tity":2}'], { declare: true });
    expect(pieces.status).toBe("201");
    expect(JSON.parse(pieces.body)).toMatchObject({ count: 2, totalPrice: 40 });
    // No declared length (chunked): streamed to the table as before.
    const chunked = await socketPost("/api/cart", [`{"productId":${id},`, '"quantity":1}'], { declare: false });
    expect(chunked.status).toBe("201");
    expect(JSON.parse(chunked.body)).toMatchObject({ count: 1, totalPrice: 20 });
  });

  it("is read before the request is made only when small, declared and JSON", async () => {
    const seen: { inHand: boolean; text: string }[] = [];
    const probe = http.createServer(async (req, res) => {
      const request = (await apiWriteRequestOf(req, res, `http://127.0.0.1${req.url}`))!;
      seen.push({ inHand: bodyInHand(request), text: await readText(request, BODY_LIMITS.webhook) });
      res.end();
    });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const at = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/api/cart`;
    mockServer.use(mock.all(`${new URL(at).origin}/*`, () => passthrough()));
    try {
      await fetch(at, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"a":1}' });
      await fetch(at, { method: "POST", headers: { "Content-Type": "text/plain" }, body: '{"a":2}' });
      await fetch(at, { method: "POST", headers: { "Content-Type": "application/json" }, body: `{"a":"${"x".repeat(70 * 1024)}"}` });
    } finally {
      await new Promise((resolve) => probe.close(resolve));
    }
    expect(seen.map(({ inHand, text }) => [inHand, text.slice(0, 7)])).toEqual([
      [true, '{"a":1}'],
      [false, '{"a":2}'],
      [false, '{"a":"x'],
    ]);
  });

  it("reaches a tRPC mutation whole, as it did streamed", async () => {
    const id = await addProduct(ctx, { name: "Hidden By tRPC" });
    const response = await post("/api/trpc/admin.products.setVisibility", { id, isVisible: false }, { Cookie: admin });
    expect(response.status).toBe(200);
    expect((await ctx.db.selectFrom("products").select("isVisible").where("id", "=", id).executeTakeFirstOrThrow()).isVisible).toBe(0);
  });

  it("changes nothing when the caller hangs up halfway, and the door goes on serving", async () => {
    const id = await addProduct(ctx, { name: "Abandoned Tee" });
    const half = `{"productId":${id},"quantity":1`;
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(new URL(base).port), "127.0.0.1", () => {
        socket.write(
          `POST /api/cart HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${half.length + 40}\r\n\r\n${half}`,
        );
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on("close", () => resolve());
      socket.on("error", () => {});
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await ctx.db.selectFrom("cartItems").select("id").where("productId", "=", id).execute()).toEqual([]);
    const next = await post("/api/cart", { productId: id, quantity: 1 });
    expect(next.status).toBe(201);
  });
});

/** A JSON POST written on a bare socket in pieces, with its length declared or chunked. */
function socketPost(route: string, pieces: string[], { declare }: { declare: boolean }): Promise<{ status: string; body: string }> {
  return new Promise((resolve, reject) => {
    const body = pieces.join("");
    const head = declare ? `Content-Length: ${Buffer.byteLength(body)}` : "Transfer-Encoding: chunked";
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1", async () => {
      socket.write(`POST ${route} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n${head}\r\n\r\n`);
      for (const piece of pieces) {
        socket.write(declare ? piece : `${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
        await new Promise((next) => setTimeout(next, 20));
      }
      if (!declare) socket.write("0\r\n\r\n");
    });
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("utf8")));
    socket.on("end", () => {
      const [head, ...rest] = answer.split("\r\n\r\n");
      const text = rest.join("\r\n\r\n");
      // The door answers small JSON whole, with its length: the body is what follows the head.
      resolve({ status: head!.split(" ")[1]!, body: text });
    });
    socket.on("error", reject);
  });
}

/** A POST whose answer's bytes are kept as they came, compressed or not. */
function rawPost(route: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${route}`,
      { method: "POST", headers: { "Content-Type": "application/json", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const out = new Headers();
          for (const [key, value] of Object.entries(res.headers)) if (typeof value === "string") out.set(key, value);
          resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers: out }));
        });
      },
    );
    request.on("error", reject);
    request.end(JSON.stringify(body));
  });
}

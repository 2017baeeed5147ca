import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import compression from "compression";
import express from "express";
import { http, passthrough } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiMiddleware } from "#server/api/express";
import { useAppContextForTests } from "#server/boot";
import { ensureAdmin } from "#server/services/accounts/users";
import { mockServer } from "../mocks/server";
import { createTestContext } from "../setup/context";
import { imageUpload, signedStripeEvent } from "./api-over-http";
import { addProduct } from "./store-helpers";

// The API mounted in Express as server.js mounts it: behind compression, ahead of a stand-in for
// Remix, with the client address taken as server.js takes it (TRUST_PROXY on here).
const WEBHOOK_SECRET = "whsec_express";
const ctx = createTestContext({
  STRIPE_SECRET_KEY: "sk_test_express",
  STRIPE_PUBLISHABLE_KEY: "pk_test_express",
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
});
let base = "";
let close: () => void;
let remixCalls = 0;
let cookie = "";

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  const app = express();
  app.set("trust proxy", true);
  app.use(compression());
  app.use(
    "/api",
    apiMiddleware((req) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" })),
  );
  app.all(/.*/, (_req, res) => {
    remixCalls++;
    res.type("html").send("<p>a page</p>");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());
beforeEach(async () => {
  // The test's own server on loopback is real HTTP, not a vendor to mock.
  mockServer.use(http.all(`${base}/*`, () => passthrough()));
  if (!cookie) {
    const login = await fetch(`${base}/api/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "boss", password: "boss-password" }),
    });
    expect(login.status).toBe(200);
    cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
  }
});

describe("the API over HTTP", () => {
  it("answers /api/products as JSON, compressed, without reaching Remix", async () => {
    // Past compression()'s 1 kB threshold.
    for (const name of ["Express Tee", "Express Hoodie", "Express Cap", "Express Jacket"])
      await addProduct(ctx, { name, priceCents: 5000 });
    const response = await fetch(`${base}/api/products`, { headers: { "Accept-Encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(Array.isArray(await response.json())).toBe(true);
    expect(remixCalls).toBe(0);
  });

  it("sends a small JSON answer whole, with its length, uncompressed (compressing it costs more than it saves)", async () => {
    const response = await fetch(`${base}/api/cart`, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    const body = await response.text();
    expect(body).toBe('{"cartItems":[],"totalPrice":0,"count":0}');
    expect(response.headers.get("content-length")).toBe(String(body.length));
  });

  it("answers OPTIONS with 204 and Allow, HEAD without a body, a wrong method with 405", async () => {
    const options = await fetch(`${base}/api/admin/orders`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await options.text()).toBe("");
    const head = await fetch(`${base}/api/products`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    const wrong = await fetch(`${base}/api/products`, { method: "DELETE" });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await wrong.json()).toEqual({ message: "Method not allowed. Use GET.", errors: {} });
  });

  it("answers an unknown /api path with the JSON 404 and leaves other paths to Remix", async () => {
    const unknown = await fetch(`${base}/api/nope?x=1`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ message: "No API route for GET /api/nope.", errors: {} });
    expect(remixCalls).toBe(0);
    expect((await fetch(`${base}/apiary`)).status).toBe(200);
    expect(remixCalls).toBe(1);
  });

  it("serves tRPC through the same mount", async () => {
    const anonymous = await fetch(`${base}/api/trpc/admin.orders.list`);
    expect(anonymous.status).toBe(401);
    const signedIn = await fetch(`${base}/api/trpc/admin.orders.list`, { headers: { Cookie: cookie } });
    expect(signedIn.status).toBe(200);
    expect((await signedIn.json()).result.data).toEqual({ orders: [] });
  });

  it("takes a multipart upload with its Content-Length and keeps the size check", async () => {
    const { headers, body } = await imageUpload(cookie, "#123456");
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

  it("streams the subscriber export as a CSV download", async () => {
    await ctx.db
      .insertInto("subscribers")
      .values([{ email: "stream@example.com", subscribedAt: "2026-05-01T10:00:00.000Z" }])
      .execute();
    const exported = await fetch(`${base}/api/admin/export-subscribers`, { headers: { Cookie: cookie } });
    const { downloadUrl } = (await exported.json()) as { downloadUrl: string };
    const download = await fetch(base + downloadUrl, { headers: { Cookie: cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(download.headers.get("content-disposition")).toMatch(/^attachment; filename="subscribers-.+\.csv"$/);
    expect(await download.text()).toContain("stream@example.com");
  });

  it("hands a webhook its raw body, so Stripe's signature checks out", async () => {
    const event = signedStripeEvent("evt_express_1", "sk_test_express", WEBHOOK_SECRET);
    const response = await fetch(`${base}/api/webhooks/stripe`, { method: "POST", ...event });
    expect(response.status).toBe(200);
    expect(await ctx.db.selectFrom("paymentEvents").select("id").where("id", "=", "evt_express_1").executeTakeFirst()).toBeTruthy();
  });

  it("rate-limits by the client address the server resolved (X-Forwarded-For under trust proxy)", async () => {
    const message = {
      name: "Rosa",
      email: "rosa@example.com",
      subject: "Where is it",
      message: "My parcel has not arrived yet.",
      supportType: "shipping",
    };
    const contact = (ip: string) =>
      fetch(`${base}/api/support/contact`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": ip },
        body: JSON.stringify(message),
      });
    for (let i = 0; i < 5; i++) expect((await contact("198.51.100.20")).status).toBe(201);
    expect((await contact("198.51.100.20")).status).toBe(429);
    expect((await contact("198.51.100.21")).status).toBe(201);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { apiRouter } from "#server/api/dispatch";
import { Router } from "#server/api/router";
import { route } from "#server/api/route";
import { useAppContextForTests } from "#server/boot";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();
// Any value fits the shape of a path parameter; only OPTIONS is asked, so none is looked up.
const concrete = (path: string) => path.replace(/:(\w+)/g, "1").replace("*", "admin.orders.list");

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
});

describe("OPTIONS", () => {
  it.each(apiRouter.entries.map((entry) => [entry.path, entry] as const))("%s answers 204 with Allow and no body", async (_path, entry) => {
    const response = await api("OPTIONS", concrete(entry.path));
    expect(response.status).toBe(204);
    const allow = response.headers.get("Allow")!.split(", ");
    expect(allow).toEqual(expect.arrayContaining([...entry.methods, "OPTIONS"]));
    expect(allow.includes("HEAD")).toBe(entry.methods.includes("GET"));
    expect(await response.text()).toBe("");
  });

  it("OPTIONS /api/admin/orders without an admin cookie lists the methods, never the orders", async () => {
    await addProduct(ctx, { name: "Secret Tee" });
    const response = await api("OPTIONS", "/api/admin/orders");
    expect(response.status).toBe(204);
    expect(response.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect(response.headers.get("Content-Type")).toBeNull();
    expect(await response.text()).toBe("");
  });

  it("names every method of a path with several", async () => {
    expect((await api("OPTIONS", "/api/cart")).headers.get("Allow")).toBe("GET, HEAD, POST, DELETE, OPTIONS");
    expect((await api("OPTIONS", "/api/cart/7")).headers.get("Allow")).toBe("PATCH, DELETE, OPTIONS");
    expect((await api("OPTIONS", "/api/trpc/admin.orders.list")).headers.get("Allow")).toBe("GET, HEAD, POST, OPTIONS");
  });
});

describe("a method the path does not serve", () => {
  it("is a 405 with Allow and the JSON error body", async () => {
    const response = await api("DELETE", "/api/products");
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    expect(await response.json()).toEqual({ message: "Method not allowed. Use GET.", errors: {} });
  });

  it("names all the path's methods", async () => {
    const response = await api("PUT", "/api/admin/products/1", { jar: admin, body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET, HEAD, PATCH, DELETE, OPTIONS");
    expect(await response.json()).toEqual({ message: "Method not allowed. Use GET or PATCH or DELETE.", errors: {} });
  });

  it("on an admin path tells an outsider nothing but 401", async () => {
    const response = await api("PUT", "/api/admin/products/1", { body: {} });
    expect(response.status).toBe(401);
    expect(response.headers.get("Allow")).toBeNull();
  });
});

describe("HEAD", () => {
  it("answers a GET route's status and headers without the body", async () => {
    await addProduct(ctx, { name: "Head Tee" });
    const get = await api("GET", "/api/products");
    const head = await api("HEAD", "/api/products");
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toBe(get.headers.get("Content-Type"));
    expect(await head.text()).toBe("");
    expect((await get.json()).length).toBeGreaterThan(0);
  });

  it("is guarded like the GET it stands for", async () => {
    const head = await api("HEAD", "/api/admin/orders");
    expect(head.status).toBe(401);
    expect(await head.text()).toBe("");
  });
});

describe("unknown paths", () => {
  it.each([
    ["GET", "/api/nope"],
    ["POST", "/api/admin/orders/1/nope"],
    ["OPTIONS", "/api/products/1/images/2"],
    ["GET", "/api"],
  ])("%s %s is the JSON 404", async (method, path) => {
    const response = await api(method, path);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: `No API route for ${method} ${path}.`, errors: {} });
  });
});

describe("path parameters", () => {
  it("refuses ids that are not positive whole numbers as not found, as before", async () => {
    for (const id of ["0", "-1", "abc", "1.5", "1e3", "%20"]) {
      const order = await api("GET", `/api/admin/orders/${id}/refund-eligibility`, { jar: admin });
      expect(order.status, id).toBe(404);
      expect(await order.json(), id).toEqual({ message: "Order not found.", errors: {} });
      const images = await api("GET", `/api/products/${id}/images`);
      expect(images.status, id).toBe(404);
    }
  });

  it("decodes a parameter before the route checks it, so an encoded path cannot sneak past", async () => {
    const response = await api("GET", "/api/admin/labels/..%2F..%2Fstore.db", { jar: admin });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Label not found.", errors: {} });
  });

  it("prefers a literal segment and falls back to a parameter, as Remix ranked the files", async () => {
    expect(apiRouter.match("/api/admin/products/images/5")).toMatchObject({
      entry: { path: "/api/admin/products/images/:imageId" },
      params: { imageId: "5" },
    });
    expect(apiRouter.match("/api/admin/products/5/images")).toMatchObject({
      entry: { path: "/api/admin/products/:id/images" },
      params: { id: "5" },
    });
    expect(apiRouter.match("/api/admin/products/images")).toMatchObject({
      entry: { path: "/api/admin/products/:id" },
      params: { id: "images" },
    });
    expect(apiRouter.match("/api/trpc/a.b,c.d")).toMatchObject({ entry: { path: "/api/trpc/*" }, params: { "*": "a.b,c.d" } });
    expect(apiRouter.match("/API/Products/")?.entry.path).toBe("/api/products");
  });
});

describe("the table", () => {
  const door = (method: "GET" | "POST", path: string) => route({ method, path, guard: "public", handle: () => null });

  it("refuses a method declared twice on one path and clashing parameter names", () => {
    expect(() => new Router([door("GET", "/api/a"), door("GET", "/api/a")])).toThrow("GET /api/a is declared twice.");
    expect(() => new Router([door("GET", "/api/a/:id"), door("GET", "/api/a/:name/b")])).toThrow(":name clashes with :id");
  });

  it("declares no route outside /api", () => {
    for (const entry of apiRouter.entries) expect(entry.path).toMatch(/^\/api\//);
  });
});

describe("caches", () => {
  it("keeps a signed-in caller's answers out of every cache, cookies and all", async () => {
    const jar = new CookieJar();
    const login = await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar });
    expect(login.status).toBe(200);
    expect(login.headers.get("Cache-Control")).toBe("private, no-store");
    expect(login.headers.getSetCookie()).toHaveLength(1);
    const me = await api("GET", "/api/user", { jar });
    expect([me.status, me.headers.get("Cache-Control"), (await me.json()).username]).toEqual([200, "private, no-store", "boss"]);
    const orders = await api("GET", "/api/admin/orders", { jar });
    expect([orders.status, orders.headers.get("Cache-Control")]).toEqual([200, "private, no-store"]);
    const trpc = await api("GET", "/api/trpc/admin.overview", { jar });
    expect([trpc.status, trpc.headers.get("Cache-Control")]).toEqual([200, "private, no-store"]);
  });

  it("keeps refusals and errors to a personal door out of every cache too", async () => {
    // 401 to a stranger at an admin door: an admin's next request must not find it in a cache.
    const stranger = await api("GET", "/api/admin/orders");
    expect([stranger.status, stranger.headers.get("Cache-Control")]).toEqual([401, "private, no-store"]);
    const nobody = await api("GET", "/api/user");
    expect([nobody.status, nobody.headers.get("Cache-Control")]).toEqual([401, "private, no-store"]);
    // A shared cache may keep a 404 it is not told about (RFC 9111): not for a buyer's order link.
    const noOrder = await api("GET", "/api/orders/not-an-order-token");
    expect([noOrder.status, noOrder.headers.get("Cache-Control")]).toEqual([404, "private, no-store"]);
    const jar = new CookieJar();
    await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar });
    const missing = await api("GET", "/api/admin/orders/999999/refund-eligibility", { jar });
    expect([missing.status, missing.headers.get("Cache-Control")]).toEqual([404, "private, no-store"]);
  });

  it("leaves a public door's errors as they were", async () => {
    const product = await api("GET", "/api/products/999999");
    expect(product.status).toBe(404);
    expect(product.headers.get("Cache-Control") ?? "").not.toMatch(/private|no-store/);
    const unknown = await api("GET", "/api/no-such-door");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("Cache-Control") ?? "").not.toMatch(/private|no-store/);
  });

  it("leaves a public answer's caching to its route", async () => {
    const products = await api("GET", "/api/products");
    expect(products.status).toBe(200);
    expect(products.headers.get("Cache-Control") ?? "").not.toMatch(/private|no-store/);
  });
});

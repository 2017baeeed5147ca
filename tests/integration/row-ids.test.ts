// Every table's id is PostgreSQL's `integer` there: a larger number in a URL or a body, sent to
// PostgreSQL, was an error (22003), a 500 where the store means "no such row". A fuzz of every door
// found it; this file runs on both engines (test:postgres repeats it on PostgreSQL).
import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { MAX_ROW_ID } from "#server/contracts/row-id";
import { drawPageLoader } from "#server/http/doors/draw-door";
import { outboxLoader } from "#server/http/doors/outbox-door";
import { productPageLoader } from "#server/http/doors/store-door";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { runRoute } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();
const PAST = [String(MAX_ROW_ID + 1), "3000000000", "9007199254740991"];

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "ids", password: "ids-password", email: "ids@example.com" });
  await api("POST", "/api/login", { body: { username: "ids", password: "ids-password" }, jar: admin });
});

const messageOf = async (response: Response) => ((await response.json()) as { message: string }).message;

describe("an id past PostgreSQL's integer", () => {
  it("names no product, draw or order at the shopper's doors: 404 pages and answers, a 400 for a bag's product", async () => {
    for (const id of PAST) {
      const images = await api("GET", `/api/products/${id}/images`);
      expect({ id, status: images.status, message: await messageOf(images) }).toEqual({ id, status: 404, message: "Product not found." });
      const product = await runRoute(productPageLoader, { path: `/store/${id}`, params: { productId: id } });
      expect({ id, status: product.status }).toEqual({ id, status: 404 });
      const draw = await api("GET", `/api/draws/${id}`);
      expect({ id, status: draw.status }).toEqual({ id, status: 404 });
      const drawPage = await runRoute(drawPageLoader, { path: `/draws/${id}`, params: { id } });
      expect({ id, status: drawPage.status }).toEqual({ id, status: 404 });
      const bag = await api("POST", "/api/cart", { body: { productId: Number(id), quantity: 1 } });
      expect({ id, status: bag.status, message: await messageOf(bag) }).toEqual({
        id,
        status: 400,
        message: "Product id must be a positive whole number",
      });
    }
  });

  it("is a 404 at the admin's REST doors, a 400 at tRPC, and no message on the outbox page", async () => {
    for (const id of PAST) {
      const eligibility = await api("GET", `/api/admin/orders/${id}/refund-eligibility`, { jar: admin });
      expect({ id, status: eligibility.status, message: await messageOf(eligibility) }).toEqual({
        id,
        status: 404,
        message: "Order not found.",
      });
      const patched = await api("PATCH", `/api/admin/products/${id}`, { body: { name: "Renamed" }, jar: admin });
      expect({ id, status: patched.status }).toEqual({ id, status: 404 });
      const detail = await api("GET", `/api/trpc/admin.orders.detail?input=${encodeURIComponent(JSON.stringify({ id: Number(id) }))}`, {
        jar: admin,
      });
      expect({ id, status: detail.status }).toEqual({ id, status: 400 });
      const outbox = await runRoute<{ message: unknown }>(outboxLoader, { path: `/admin/outbox?id=${id}`, jar: admin });
      expect({ id, status: outbox.status, message: outbox.data.message }).toEqual({ id, status: 200, message: null });
    }
    // The largest id is still an id: no such order, asked of the database.
    const largest = await api("GET", `/api/admin/orders/${MAX_ROW_ID}/refund-eligibility`, { jar: admin });
    expect(largest.status).toBe(404);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();
const admin = new CookieJar();
const shopper = new CookieJar();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await api("POST", "/api/register", {
    body: { username: "shopper", password: "shopper1", email: "s@example.com" },
    jar: shopper,
  });
  await ctx.db
    .insertInto("subscribers")
    .values([{ email: "a@example.com" }, { email: "b@example.com" }])
    .execute();
});

const overview = (jar?: CookieJar) => api("GET", "/api/trpc/admin.overview", { jar });

describe("tRPC at /api/trpc", () => {
  it("gives an admin the overview", async () => {
    const response = await overview(admin);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.result.data).toEqual({ subscribers: 2, products: 0, orders: 0, revenue: 0 });
  });

  it("refuses a visitor with 401 and a non-admin with 403", async () => {
    const anonymous = await overview();
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).error.message).toBe("Please sign in to continue.");
    const ordinary = await overview(shopper);
    expect(ordinary.status).toBe(403);
    expect((await ordinary.json()).error.message).toBe("Admin access is required.");
  });

  it("answers an input the contract refuses with its readable message and field errors, as REST does", async () => {
    const response = await api("POST", "/api/trpc/admin.orders.refund", { body: { id: 1, reason: "   " }, jar: admin });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as {
      error: { message: string; data: { code: string; fieldErrors: Record<string, string[]> } };
    };
    expect(error.message).toBe("Please provide a reason for the refund");
    expect(error.data).toMatchObject({ code: "BAD_REQUEST", fieldErrors: { reason: ["Please provide a reason for the refund"] } });
  });

  it("runs a batch of up to ten procedures and refuses a longer one with 400, running none of it", async () => {
    const batch = (count: number) => api("GET", `/api/trpc/${Array(count).fill("admin.overview").join(",")}?batch=1`, { jar: admin });
    const ten = await batch(10);
    expect(ten.status).toBe(200);
    expect(await ten.json()).toHaveLength(10);
    expect((await batch(11)).status).toBe(400);
    // Eleven mutations: not one of them is run.
    const texts = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [String(i), { key: "homepage_tagline", text: `Tagline ${i}` }]));
    const mutations = await api("POST", `/api/trpc/${Array(11).fill("admin.settings.setText").join(",")}?batch=1`, {
      jar: admin,
      body: texts,
    });
    expect(mutations.status).toBe(400);
    expect((await mutations.json()).error.message).toBe("Batch call exceeds maximum size");
    const stored = await ctx.db.selectFrom("appSettings").select("value").where("key", "=", "homepage_tagline").executeTakeFirst();
    expect(stored?.value ?? "").not.toMatch(/^Tagline/);
    // A stranger's batch of a thousand is refused the same way.
    expect((await api("GET", `/api/trpc/${Array(1000).fill("session.me").join(",")}?batch=1`)).status).toBe(400);
  });

  it("tells anyone who they are", async () => {
    const response = await api("GET", "/api/trpc/session.me", { jar: shopper });
    expect((await response.json()).result.data).toMatchObject({ username: "shopper", isAdmin: false });
  });
});

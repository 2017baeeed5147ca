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

  it("tells anyone who they are", async () => {
    const response = await api("GET", "/api/trpc/session.me", { jar: shopper });
    expect((await response.json()).result.data).toMatchObject({ username: "shopper", isAdmin: false });
  });
});

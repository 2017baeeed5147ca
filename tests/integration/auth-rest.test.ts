import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { ensureAdmin, resetLoginLimits } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
});
beforeEach(() => resetLoginLimits(ctx));

const login = (body: unknown, jar = new CookieJar(), ip?: string) => api("POST", "/api/login", { body, jar, ip });

describe("GET /api/user", () => {
  it("answers 401 with a readable message when nobody is signed in", async () => {
    const response = await api("GET", "/api/user");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: "Not signed in.", errors: {} });
  });

  it("returns id, username, email and isAdmin for the signed-in user", async () => {
    const jar = new CookieJar();
    expect((await login({ username: "boss", password: "boss-password" }, jar)).status).toBe(200);
    const response = await api("GET", "/api/user", { jar });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: expect.any(Number), username: "boss", email: "boss@example.com", isAdmin: true });
  });
});

describe("POST /api/login", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie whose token is stored only as its SHA-256", async () => {
    const response = await login({ username: "boss", password: "boss-password" });
    const cookie = response.headers.get("Set-Cookie") ?? "";
    expect(cookie).toMatch(/^session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    const token = decodeURIComponent(cookie.split(";")[0]!.slice("session=".length)).replace(/^"|"$/g, "");
    const rows = await ctx.db.selectFrom("sessions").select("id").execute();
    expect(rows.map((r) => r.id)).not.toContain(token);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.id))).toBe(true);
  });

  it("refuses a wrong password with 401 and the spec's message", async () => {
    const response = await login({ username: "boss", password: "nope" });
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe("Invalid username or password");
    expect(response.headers.get("Set-Cookie")).toBeNull();
  });

  it("gives the spec's validation messages for missing fields", async () => {
    const response = await login({ username: "", password: "" });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors).toEqual({ username: ["Username is required"], password: ["Password is required"] });
  });

  it("refuses a body that is not JSON with 400", async () => {
    const response = await api("POST", "/api/login", { body: "{nope" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("The request body must be valid JSON.");
  });

  it("limits failed attempts per account with 429 and a readable message, even from new addresses", async () => {
    for (let i = 0; i < 5; i++)
      expect((await login({ username: "boss", password: "wrong" }, undefined, `198.51.100.${i}`)).status).toBe(401);
    const blocked = await login({ username: "boss", password: "boss-password" }, undefined, "198.51.100.99");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await blocked.json()).message).toMatch(/^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/);
  });

  it("limits attempts per address", async () => {
    for (let i = 0; i < 30; i++) await login({ username: `ghost${i}`, password: "x" }, undefined, "192.0.2.50");
    const blocked = await login({ username: "boss", password: "boss-password" }, undefined, "192.0.2.50");
    expect(blocked.status).toBe(429);
  });
});

describe("POST /api/register", () => {
  it("creates an ordinary user even when an anonymous caller asks for isAdmin", async () => {
    const jar = new CookieJar();
    const response = await api("POST", "/api/register", {
      body: { username: "mallory", password: "secret1", email: "m@example.com", isAdmin: true },
      jar,
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ username: "mallory", isAdmin: false });
    const row = await ctx.db
      .selectFrom("users")
      .select(["isAdmin", "passwordHash"])
      .where("username", "=", "mallory")
      .executeTakeFirstOrThrow();
    expect(row.isAdmin).toBe(0);
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const me = await api("GET", "/api/user", { jar });
    expect(await me.json()).toMatchObject({ username: "mallory", isAdmin: false });
  });

  it("lets an admin create an admin", async () => {
    const jar = new CookieJar();
    await login({ username: "boss", password: "boss-password" }, jar);
    const response = await api("POST", "/api/register", {
      body: { username: "deputy", password: "secret1", email: "d@example.com", isAdmin: true },
      jar,
    });
    expect(await response.json()).toMatchObject({ username: "deputy", isAdmin: true });
    const me = await api("GET", "/api/user", { jar });
    expect(await me.json()).toMatchObject({ username: "boss" });
  });

  it("gives the spec's messages for a short password and a bad e-mail, and writes nothing", async () => {
    const before = await ctx.db.selectFrom("users").select("id").execute();
    const response = await api("POST", "/api/register", {
      body: { username: "newbie", password: "12345", email: "not-an-email" },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual({
      password: ["Password must be at least 6 characters"],
      email: ["Please enter a valid email address"],
    });
    expect(await ctx.db.selectFrom("users").select("id").execute()).toHaveLength(before.length);
  });

  it("answers 409 for a username that exists, whatever its case", async () => {
    const response = await api("POST", "/api/register", {
      body: { username: "BOSS", password: "secret1", email: "x@example.com" },
    });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe("That username is already taken.");
  });
});

describe("POST /api/logout", () => {
  it("deletes the session on the server and clears the cookie", async () => {
    const jar = new CookieJar();
    await login({ username: "boss", password: "boss-password" }, jar);
    const sessionsBefore = await ctx.db.selectFrom("sessions").select("id").execute();
    const response = await api("POST", "/api/logout", { jar });
    expect(response.status).toBe(204);
    expect(await ctx.db.selectFrom("sessions").select("id").execute()).toHaveLength(sessionsBefore.length - 1);
    expect(jar.has("session")).toBe(false);
    expect((await api("GET", "/api/user", { jar })).status).toBe(401);
  });
});

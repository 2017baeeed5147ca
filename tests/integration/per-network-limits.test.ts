// Per-address allowances count a caller's network (an IPv6 /64, an IPv4 address however it is
// written), and /api/register has one; argon2 runs under a small bound however many ask at once.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { TooMany } from "#server/errors";
import { BUSY_MESSAGE, HASHES_AT_ONCE, hashPassword, takePeakPasswordWork, WAITING_AT_MOST } from "#server/services/accounts/passwords";
import { resetSubscribeLimits } from "#server/services/mail/subscribers";
import { resetSupportLimits } from "#server/services/store/support";
import { ensureAdmin, resetLoginLimits } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
});
beforeEach(async () => {
  await resetSubscribeLimits(ctx);
  await resetSupportLimits(ctx);
  await resetLoginLimits(ctx);
  ctx.clock.set("2026-06-01T12:00:00.000Z");
});

const subscribeFrom = (ip: string, i: number) =>
  api("POST", "/api/subscribe", { body: { email: `v6fan${ip.length}-${i}@example.com` }, ip });

describe("per-address allowances count networks", () => {
  it("gives every address of one IPv6 /64 one allowance between them: ten sign-ups, then 429", async () => {
    for (let i = 1; i <= 10; i++) expect((await subscribeFrom(`2001:db8:1:2::${i.toString(16)}`, i)).status, `address ${i}`).toBe(201);
    const blocked = await subscribeFrom("2001:db8:1:2:ffff:ffff:ffff:ffff", 11);
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).message).toMatch(/^Too many sign-ups from your network\. Please try again in \d+ minutes?\.$/);
    // The next /64 is someone else.
    expect((await subscribeFrom("2001:db8:1:3::1", 12)).status).toBe(201);
  });

  it("counts an IPv4-mapped IPv6 address as the IPv4 address", async () => {
    const valid = {
      name: "Ann",
      email: "ann@example.com",
      subject: "Sizing",
      message: "Does the tee run small or true to size?",
      supportType: "shipping",
    };
    const from = ["198.51.100.7", "::ffff:198.51.100.7", "198.51.100.7", "::FFFF:c633:6407", "198.51.100.7"];
    for (const ip of from) expect((await api("POST", "/api/support/contact", { body: valid, ip })).status, ip).toBe(201);
    const blocked = await api("POST", "/api/support/contact", { body: valid, ip: "::ffff:198.51.100.7" });
    expect(blocked.status).toBe(429);
    expect((await api("POST", "/api/support/contact", { body: valid, ip: "198.51.100.8" })).status).toBe(201);
  });
});

describe("POST /api/register", () => {
  const register = (n: number, ip: string, jar = new CookieJar()) =>
    api("POST", "/api/register", { body: { username: `burst${n}`, password: "burst-password", email: `burst${n}@example.com` }, ip, jar });

  it("takes ten new accounts from one network in ten minutes, then answers 429 before hashing or writing anything", async () => {
    for (let n = 0; n < 10; n++)
      expect((await register(n, n % 2 ? "2001:db8:9:9::1" : "2001:db8:9:9::2")).status, `account ${n}`).toBe(201);
    const blocked = await register(10, "2001:db8:9:9::3");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toBe("600");
    expect(await blocked.json()).toEqual({
      message: "Too many new accounts from your network. Please try again in 10 minutes.",
      errors: {},
    });
    expect(await ctx.db.selectFrom("users").select("id").where("username", "=", "burst10").executeTakeFirst()).toBeUndefined();
    // Another network is not affected, and the window ends.
    expect((await register(11, "203.0.113.60")).status).toBe(201);
    ctx.clock.set("2026-06-01T12:10:00.000Z");
    expect((await register(12, "2001:db8:9:9::3")).status).toBe(201);
  });

  it("does not count an admin creating accounts", async () => {
    const admin = new CookieJar();
    expect(
      (await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin, ip: "192.0.2.90" })).status,
    ).toBe(200);
    for (let n = 20; n < 32; n++) expect((await register(n, "192.0.2.90", admin)).status, `account ${n}`).toBe(201);
  });
});

describe("argon2 under a bound", () => {
  it(`never runs more than ${HASHES_AT_ONCE} at once, however many ask: the rest queue`, async () => {
    takePeakPasswordWork();
    const hashes = await Promise.all(Array.from({ length: 12 }, (_, i) => hashPassword(`password-${i}`)));
    expect(new Set(hashes).size).toBe(12);
    expect(takePeakPasswordWork()).toBe(HASHES_AT_ONCE);
  });

  it("refuses with 429 past the queue's bound instead of growing it", async () => {
    const flood = Array.from({ length: HASHES_AT_ONCE + WAITING_AT_MOST + 5 }, (_, i) => hashPassword(`flood-${i}`));
    const outcomes = await Promise.allSettled(flood);
    const refused = outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason as TooMany);
    expect(refused).toHaveLength(5);
    for (const error of refused) {
      expect(error).toBeInstanceOf(TooMany);
      expect(error.message).toBe(BUSY_MESSAGE);
    }
    expect(takePeakPasswordWork()).toBe(HASHES_AT_ONCE);
  });
});

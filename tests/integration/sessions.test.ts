import { beforeAll, describe, expect, it } from "vitest";
import { createSession, invalidateUserSessions, sessionIdOf, validateSessionToken } from "#server/services/accounts/sessions";
import { sweep } from "#server/services/jobs/sweeper";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();
const DAY = 24 * 60 * 60 * 1000;
let userId: number;

beforeAll(async () => {
  await ensureAdmin(ctx, { username: "ada", password: "ada-password", email: "ada@example.com" });
  userId = (await ctx.db.selectFrom("users").select("id").executeTakeFirstOrThrow()).id;
});

describe("sessions", () => {
  it("lasts 30 days and is gone after", async () => {
    const { token, expiresAt } = await createSession(ctx, userId);
    expect(expiresAt.getTime() - ctx.clock.now().getTime()).toBe(30 * DAY);
    ctx.clock.advance(30 * DAY);
    expect(await validateSessionToken(ctx, token)).toBeNull();
    expect(await ctx.db.selectFrom("sessions").where("id", "=", sessionIdOf(token)).selectAll().execute()).toEqual([]);
  });

  it("is not renewed in its first half and renewed for 30 days once half is spent", async () => {
    const { token } = await createSession(ctx, userId);
    ctx.clock.advance(10 * DAY);
    expect((await validateSessionToken(ctx, token))?.renewed).toBe(false);
    ctx.clock.advance(6 * DAY);
    const renewed = await validateSessionToken(ctx, token);
    expect(renewed?.renewed).toBe(true);
    expect(renewed!.expiresAt.getTime() - ctx.clock.now().getTime()).toBe(30 * DAY);
    ctx.clock.advance(29 * DAY);
    expect(await validateSessionToken(ctx, token)).not.toBeNull();
  });

  it("refuses tokens that are malformed or unknown", async () => {
    expect(await validateSessionToken(ctx, "")).toBeNull();
    expect(await validateSessionToken(ctx, "a".repeat(32))).toBeNull();
    expect(await validateSessionToken(ctx, "'; DROP TABLE users; --")).toBeNull();
  });

  it("signs a user out everywhere except the session kept", async () => {
    const keep = await createSession(ctx, userId);
    const other = await createSession(ctx, userId);
    await invalidateUserSessions(ctx, userId, keep.token);
    expect(await validateSessionToken(ctx, keep.token)).not.toBeNull();
    expect(await validateSessionToken(ctx, other.token)).toBeNull();
  });

  it("are deleted by the sweeper once expired, even if nobody ever presents them again; live ones stay", async () => {
    const expired = await createSession(ctx, userId);
    ctx.clock.advance(20 * DAY);
    const live = await createSession(ctx, userId);
    ctx.clock.advance(10 * DAY);
    await sweep(ctx);
    const ids = (await ctx.db.selectFrom("sessions").select("id").execute()).map((row) => row.id);
    expect(ids).not.toContain(sessionIdOf(expired.token));
    expect(ids).toContain(sessionIdOf(live.token));
    expect(await validateSessionToken(ctx, live.token)).not.toBeNull();
  });
});

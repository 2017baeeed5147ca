import type { ActionFunctionArgs } from "@remix-run/node";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as indexRoute from "#app/routes/_index";
import * as countdownRoute from "#app/routes/countdown";
import { useAppContextForTests } from "#server/boot";
import { HONEYPOT_FIELD, subscribeSchema } from "#server/contracts/subscribe";
import { Conflict } from "#server/errors";
import { resetSubscribeLimits, subscribe } from "#server/services/mail/subscribers";
import { createTestContext } from "../setup/context";
import { api } from "../setup/http";

const ctx = createTestContext({ BRAND_NAME: "Legacy" });

beforeAll(() => useAppContextForTests(ctx));
beforeEach(async () => {
  await ctx.db.deleteFrom("subscribers").execute();
  await resetSubscribeLimits(ctx);
  ctx.clock.set("2026-06-01T12:00:00.000Z");
});

const rows = () => ctx.db.selectFrom("subscribers").select(["email", "subscribedAt"]).orderBy("id").execute();
const post = (body: unknown, ip?: string) => api("POST", "/api/subscribe", { body, ip });

const ALREADY = "This email is already subscribed.";

describe("subscribe (service)", () => {
  it("stores the address the contract normalised, with the clock's time", async () => {
    const input = subscribeSchema.parse({ email: " Foo@Example.COM " });
    const subscriber = await subscribe(ctx, input, "203.0.113.1");
    expect(subscriber).toEqual({ id: expect.any(Number), email: "foo@example.com", subscribedAt: "2026-06-01T12:00:00.000Z" });
    expect(await rows()).toEqual([{ email: "foo@example.com", subscribedAt: "2026-06-01T12:00:00.000Z" }]);
  });

  it("refuses the same address twice with a Conflict carrying the spec's message", async () => {
    await subscribe(ctx, { email: "foo@example.com" }, "203.0.113.1");
    const second = subscribe(ctx, subscribeSchema.parse({ email: "FOO@example.com" }), "203.0.113.1");
    await expect(second).rejects.toBeInstanceOf(Conflict);
    await expect(second).rejects.toThrow(ALREADY);
    expect(await rows()).toHaveLength(1);
  });
});

describe("POST /api/subscribe", () => {
  it("answers 201 with id, email and subscribedAt, the address trimmed and lower-cased", async () => {
    const response = await post({ email: " Foo@Example.COM " });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ id: expect.any(Number), email: "foo@example.com", subscribedAt: "2026-06-01T12:00:00.000Z" });
    expect(await rows()).toEqual([{ email: "foo@example.com", subscribedAt: "2026-06-01T12:00:00.000Z" }]);
  });

  it("answers 409 with the spec's message for an address already on the list, in any case, and adds no row", async () => {
    expect((await post({ email: "foo@example.com" })).status).toBe(201);
    const response = await post({ email: "  FOO@EXAMPLE.COM" });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ message: ALREADY, errors: { email: [ALREADY] } });
    expect(await rows()).toHaveLength(1);
  });

  it.each([
    [{}, "Email is required"],
    [{ email: "" }, "Email is required"],
    [{ email: "   " }, "Email is required"],
    [{ email: "not-an-address" }, "Please enter a valid email address"],
    [{ email: "a@b" }, "Please enter a valid email address"],
  ])("answers 400 for %j with %j and stores nothing", async (body, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message, errors: { email: [message] } });
    expect(await rows()).toEqual([]);
  });

  it("answers 400 for a body that is not JSON", async () => {
    const response = await post("{email:");
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe("The request body must be valid JSON.");
  });

  it("answers 429 with Retry-After once one network has signed up ten times", async () => {
    for (let i = 0; i < 10; i++) expect((await post({ email: `fan${i}@example.com` }, "198.51.100.9")).status).toBe(201);
    const blocked = await post({ email: "fan10@example.com" }, "198.51.100.9");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await blocked.json()).message).toMatch(/^Too many sign-ups from your network\. Please try again in \d+ minutes?\.$/);
    expect(await rows()).toHaveLength(10);
    // Another network is not affected.
    expect((await post({ email: "fan10@example.com" }, "198.51.100.10")).status).toBe(201);
  });

  it("refuses GET with 405", async () => {
    const response = await api("GET", "/api/subscribe");
    expect(response.status).toBe(405);
  });
});

/** The sign-up card's form post, as a browser without JavaScript sends it to the page. */
async function postForm(action: (args: ActionFunctionArgs) => unknown, fields: Record<string, string>, path = "/?index") {
  const request = new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields) });
  const result = (await action({ request, params: {}, context: { clientIp: "192.0.2.77" } })) as {
    data: {
      intent: string;
      notice: { kind: string; title: string; description: string } | null;
      lastResult: { error?: Record<string, string[]> };
    };
    init: { status?: number } | null;
  };
  return { status: result.init?.status ?? 200, ...result.data };
}

describe("the sign-up card's page action", () => {
  it("subscribes and answers with the spec's success notice, resetting the form", async () => {
    const result = await postForm(indexRoute.action, { email: " New@Example.com ", [HONEYPOT_FIELD]: "" });
    expect(result.status).toBe(200);
    expect(result.notice).toEqual({
      kind: "success",
      title: "Welcome to the legacy.",
      description: "You'll be notified the moment the Legacy drop happens.",
    });
    expect(result.lastResult).toMatchObject({ initialValue: null });
    expect((await rows()).map((r) => r.email)).toEqual(["new@example.com"]);
  });

  it("answers a second sign-up of the same address with 409 and the spec's message", async () => {
    await postForm(indexRoute.action, { email: "twice@example.com" });
    const result = await postForm(countdownRoute.action, { email: "TWICE@example.com" }, "/countdown");
    expect(result.status).toBe(409);
    expect(result.notice).toEqual({ kind: "error", title: "Error", description: ALREADY });
    expect(await rows()).toHaveLength(1);
  });

  it("gives the spec's field messages and stores nothing for a bad address", async () => {
    const result = await postForm(indexRoute.action, { email: "nope" });
    expect(result.status).toBe(400);
    expect(result.lastResult.error).toEqual({ email: ["Please enter a valid email address"] });
    expect(result.notice).toBeNull();
    expect(await rows()).toEqual([]);
  });

  it("tells a bot that filled the honeypot what a person would hear, and stores nothing", async () => {
    const result = await postForm(indexRoute.action, { email: "bot@example.com", [HONEYPOT_FIELD]: "https://spam.example" });
    expect(result.status).toBe(200);
    expect(result.notice?.title).toBe("Welcome to the legacy.");
    expect(await rows()).toEqual([]);
  });
});

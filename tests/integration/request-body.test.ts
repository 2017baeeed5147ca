// Issue 21, items 6 and 10: every body the store reads is capped (64 kB for JSON and forms, 1 MB
// for Stripe's webhook) by its declared length and while it streams, and text that is not valid
// Unicode (a lone surrogate) is refused with 400 instead of being stored as U+FFFD.
import { beforeAll, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { getSettingValue } from "#server/services/store/settings";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar, send } from "../setup/http";
import { subscribeAction } from "#server/http/doors/subscribe-door";

const ctx = createTestContext({
  STRIPE_SECRET_KEY: "sk_test_body",
  STRIPE_PUBLISHABLE_KEY: "pk_test_body",
  STRIPE_WEBHOOK_SECRET: "whsec_body",
});
const admin = new CookieJar();
const TOO_LARGE = { message: "The request is too large.", errors: {} };
const BROKEN = "Text must be valid Unicode: this has a broken character in it.";

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
});

/**
 * A body that never ends, declaring no length (chunked): read whole, it would never be answered.
 * `pulled` says how much of it the store asked for.
 */
function endless(chunk = 16 * 1024) {
  const state = { pulled: 0 };
  const bytes = new Uint8Array(chunk).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += chunk;
      controller.enqueue(bytes);
    },
  });
  return { stream, state };
}

const streamed = (path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  send(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body,
      duplex: "half",
    } as RequestInit),
  );

describe("bodies are capped", () => {
  it("refuses a 1 MB JSON body to /api/subscribe by its Content-Length: 413 with the message, nothing stored", async () => {
    const body = JSON.stringify({ email: `${"a".repeat(1024 * 1024)}@example.com` });
    const response = await api("POST", "/api/subscribe", { body, headers: { "Content-Length": String(body.length) } });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(TOO_LARGE);
    expect(await ctx.db.selectFrom("subscribers").select("id").execute()).toEqual([]);
  });

  it("stops reading a chunked body at 64 kB: an endless one is answered 413", async () => {
    const { stream, state } = endless();
    const response = await streamed("/api/subscribe", stream);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(TOO_LARGE);
    // At most the limit and the chunk that crossed it, and what the stream queued ahead.
    expect(state.pulled).toBeLessThanOrEqual(128 * 1024);
  });

  it("takes a body just under the limit", async () => {
    const response = await api("POST", "/api/subscribe", { body: JSON.stringify({ email: "near@example.com", pad: "x".repeat(60_000) }) });
    expect(response.status).toBe(201);
  });

  it("caps tRPC mutations and the CSP report door alike", async () => {
    const trpc = await streamed("/api/trpc/admin.settings.setText", endless().stream, { Cookie: admin.header() });
    expect(trpc.status).toBe(413);
    expect(await trpc.json()).toEqual(TOO_LARGE);
    const csp = await streamed("/api/csp-report", endless().stream, { "Content-Type": "application/csp-report" });
    expect(csp.status).toBe(413);
    expect((await csp.json()).message).toBe("A report is at most 64 kB.");
  });

  it("refuses Stripe's webhook past 1 MB before its signature is checked, and reads up to 1 MB", async () => {
    const headers = { "Stripe-Signature": "t=1,v1=00" };
    const { stream, state } = endless(64 * 1024);
    const endlessHook = await streamed("/api/webhooks/stripe", stream, headers);
    expect(endlessHook.status).toBe(413);
    expect(await endlessHook.json()).toEqual(TOO_LARGE);
    expect(state.pulled).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024);
    const declared = await api("POST", "/api/webhooks/stripe", {
      body: "{}",
      headers: { ...headers, "Content-Length": String(1024 * 1024 + 1) },
    });
    expect(declared.status).toBe(413);
    // Under the limit the signature is what refuses it.
    const big = await api("POST", "/api/webhooks/stripe", { body: JSON.stringify({ pad: "x".repeat(900_000) }), headers });
    expect(big.status).toBe(400);
    expect((await big.json()).message).toBe("Invalid signature.");
  });

  it("answers a page's form post over 64 kB with a 413 page", async () => {
    const form = new URLSearchParams({ email: "page@example.com", pad: "x".repeat(70 * 1024) });
    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    const thrown = await subscribeAction({ request, context: {}, params: {} }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(413);
    expect(await (thrown as Response).text()).toBe("The request is too large.");
  });
});

describe("text that is not valid Unicode is refused", () => {
  it("refuses a homepage tagline with a lone surrogate (REST and tRPC): 400 with the field's error, the old one kept", async () => {
    const before = await getSettingValue(ctx, "homepage_tagline");
    const rest = await api("POST", "/api/admin/homepage-tagline", { body: '{"text":"Drop \\ud83d day"}', jar: admin });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toEqual({ message: BROKEN, errors: { text: [BROKEN] } });
    const trpc = await api("POST", "/api/trpc/admin.settings.setText", {
      body: '{"key":"homepage_tagline","text":"Drop \\udc00 day"}',
      jar: admin,
    });
    expect(trpc.status).toBe(400);
    const { error } = (await trpc.json()) as { error: { message: string; data: { fieldErrors: Record<string, string[]> } } };
    expect(error.message).toBe(BROKEN);
    expect(error.data.fieldErrors).toEqual({ text: [BROKEN] });
    expect(await getSettingValue(ctx, "homepage_tagline")).toBe(before);
    // A whole pair (an emoji) is text like any other.
    const emoji = await api("POST", "/api/admin/homepage-tagline", { body: '{"text":"Drop \\ud83d\\udd25 day"}', jar: admin });
    expect(emoji.status).toBe(200);
    expect(await getSettingValue(ctx, "homepage_tagline")).toBe("Drop 🔥 day");
  });

  it("refuses it on the public forms: subscribe and support", async () => {
    const subscribe = await api("POST", "/api/subscribe", { body: '{"email":"a\\ud800@example.com"}' });
    expect(subscribe.status).toBe(400);
    expect(await subscribe.json()).toEqual({ message: BROKEN, errors: { email: [BROKEN] } });
    const support = await api("POST", "/api/support/contact", {
      body: '{"name":"Sam","email":"sam@example.com","subject":"Hi \\udfff","message":"A message long enough."}',
    });
    expect(support.status).toBe(400);
    expect(await support.json()).toEqual({ message: BROKEN, errors: { subject: [BROKEN] } });
    const emails = (await ctx.db.selectFrom("subscribers").select("email").execute()).map((row) => row.email);
    expect(emails.filter((email) => email.includes("\uFFFD"))).toEqual([]);
  });
});

describe("NUL, which PostgreSQL's text cannot hold, is refused as a broken character", () => {
  it("refuses it in JSON and tRPC (400 with the field's error, the old value kept) and in a page's form (400 page)", async () => {
    const before = await getSettingValue(ctx, "homepage_tagline");
    const rest = await api("POST", "/api/admin/homepage-tagline", { body: '{"text":"Drop \\u0000 day"}', jar: admin });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toEqual({ message: BROKEN, errors: { text: [BROKEN] } });
    const trpc = await api("POST", "/api/trpc/admin.settings.setText", { body: '{"key":"homepage_tagline","text":"\\u0000"}', jar: admin });
    expect(trpc.status).toBe(400);
    expect(((await trpc.json()) as { error: { message: string } }).error.message).toBe(BROKEN);
    const support = await api("POST", "/api/support/contact", {
      body: '{"name":"Sam\\u0000","email":"sam@example.com","subject":"Hello there","message":"A message long enough."}',
    });
    expect(support.status).toBe(400);
    expect(await support.json()).toEqual({ message: BROKEN, errors: { name: [BROKEN] } });
    expect(await getSettingValue(ctx, "homepage_tagline")).toBe(before);

    const request = new Request("http://localhost/", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=fan%00%40example.com",
    });
    const thrown = await subscribeAction({ request, context: {}, params: {} }).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(400);
    expect(await (thrown as Response).text()).toBe(BROKEN);
    const emails = (await ctx.db.selectFrom("subscribers").select("email").execute()).map((row) => row.email);
    expect(emails.filter((email) => email.startsWith("fan"))).toEqual([]);
  });
});

describe("a body nested past 32 levels is refused, never walked down", () => {
  const TOO_DEEP = "The request body is nested too deeply.";
  // 64,000 bytes: under the form limit, 32,000 arrays deep.
  const deepest = "[".repeat(32_000) + "]".repeat(32_000);
  const at32 = Array.from({ length: 32 }, () => "0").join(".");

  it("answers 400 with the message at the REST doors, public and signed in", async () => {
    for (const [path, jar] of [
      ["/api/confirm-order", undefined],
      ["/api/subscribe", undefined],
      ["/api/admin/homepage-tagline", admin],
    ] as const) {
      const response = await api("POST", path, { body: deepest, jar });
      expect(response.status, path).toBe(400);
      expect(await response.json(), path).toEqual({ message: TOO_DEEP, errors: { [at32]: [TOO_DEEP] } });
    }
  });

  it("answers 400 with the message at tRPC, before the admin check and for a query's input", async () => {
    const mutation = await api("POST", "/api/trpc/admin.products.setVisibility", { body: deepest });
    expect(mutation.status).toBe(400);
    expect(((await mutation.json()) as { error: { message: string } }).error.message).toBe(TOO_DEEP);
    const deepQuery = encodeURIComponent("[".repeat(2_000) + "]".repeat(2_000));
    const query = await api("GET", `/api/trpc/admin.orders.list?input=${deepQuery}`);
    expect(query.status).toBe(400);
    expect(((await query.json()) as { error: { message: string } }).error.message).toBe(TOO_DEEP);
  });

  it("reads a body 32 levels deep as the contract says: an unknown field is left out, the e-mail subscribed", async () => {
    const nested = "[".repeat(31) + "]".repeat(31);
    const response = await api("POST", "/api/subscribe", { body: `{"email":"deep@example.com","extra":${nested}}` });
    expect(response.status).toBeLessThan(300);
    const row = await ctx.db.selectFrom("subscribers").select("email").where("email", "=", "deep@example.com").executeTakeFirst();
    expect(row?.email).toBe("deep@example.com");
  });
});

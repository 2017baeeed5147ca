import { http, HttpResponse } from "msw";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as unsubscribePage from "#app/routes/unsubscribe";
import { useAppContextForTests } from "#server/boot";
import { COMPOSE_MISSING } from "#server/contracts/admin-subscribers";
import { campaignSettled, getCampaign, resumeCampaign, sendCampaign } from "#server/services/mail/campaigns";
import { unsubscribeToken } from "#server/services/mail/unsubscribe";
import { ensureAdmin } from "#server/services/accounts/users";
import { POSTMARK_API } from "../mocks/postmark";
import { mockServer } from "../mocks/server";
import { createTestContext, type TestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ORIGIN = "https://shop.legacy.test";

interface PostmarkMessage {
  From: string;
  To: string;
  Subject: string;
  HtmlBody: string;
  TextBody: string;
  MessageStream: string;
  Headers: { Name: string; Value: string }[];
}

async function adminIdOf(ctx: TestContext) {
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  return (await ctx.db.selectFrom("users").select("id").where("username", "=", "boss").executeTakeFirstOrThrow()).id;
}

async function addSubscribers(ctx: TestContext, emails: string[]) {
  for (let i = 0; i < emails.length; i += 400) {
    await ctx.db
      .insertInto("subscribers")
      .values(emails.slice(i, i + 400).map((email) => ({ email })))
      .execute();
  }
}

const emails = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}@example.com`);

/** Postmark's /email/batch: one result per message, in order. `answer` decides each call. */
function postmarkBatch(answer: (call: number, messages: PostmarkMessage[]) => Response | "ok" | Record<string, number>) {
  const calls: PostmarkMessage[][] = [];
  mockServer.use(
    http.post(`${POSTMARK_API}/email/batch`, async ({ request }) => {
      const messages = (await request.json()) as PostmarkMessage[];
      calls.push(messages);
      const decided = answer(calls.length, messages);
      if (decided instanceof Response) return decided;
      const codes = decided === "ok" ? {} : decided;
      return HttpResponse.json(
        messages.map((m, i) => {
          const code = codes[m.To] ?? 0;
          return code === 0
            ? { To: m.To, SubmittedAt: new Date().toISOString(), MessageID: `pm-${calls.length}-${i}`, ErrorCode: 0, Message: "OK" }
            : { ErrorCode: code, Message: "You tried to send to recipient(s) that have been marked as inactive." };
        }),
      );
    }),
  );
  return calls;
}

const recipients = (calls: PostmarkMessage[][]) => calls.flat().map((m) => m.To);

describe("campaigns through Postmark's broadcast stream", () => {
  const ctx = createTestContext({
    POSTMARK_SERVER_TOKEN: "pm-token",
    POSTMARK_FROM: "news@legacy.test",
    POSTMARK_BROADCAST_STREAM: "launch-news",
  });
  let adminId: number;
  beforeAll(async () => {
    useAppContextForTests(ctx);
    adminId = await adminIdOf(ctx);
  });
  afterEach(async () => {
    await ctx.db.deleteFrom("emailCampaigns").execute();
    await ctx.db.deleteFrom("subscribers").execute();
    await ctx.db.deleteFrom("mailMessages").execute();
  });

  it("mails 1,201 subscribers in three batch calls of 500, 500 and 201, each with unsubscribe headers", async () => {
    await addSubscribers(ctx, emails("fan", 1201));
    const calls = postmarkBatch(() => "ok");
    const result = await sendCampaign(ctx, { subject: "The drop", htmlContent: "<p>Soon.</p>" }, adminId, { origin: ORIGIN });

    expect(calls.map((c) => c.length)).toEqual([500, 500, 201]);
    expect(new Set(recipients(calls)).size).toBe(1201);
    expect(result).toMatchObject({ message: "Email sent to 1,201 subscribers", status: "sent" });
    const first = calls[0]![0]!;
    expect(first).toMatchObject({ From: "news@legacy.test", Subject: "The drop", MessageStream: "launch-news" });
    const headers = Object.fromEntries(first.Headers.map((h) => [h.Name, h.Value]));
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toMatch(new RegExp(`^<${ORIGIN}/unsubscribe\\?token=\\d+\\.[\\w-]{43}>$`));
    const link = headers["List-Unsubscribe"]!.slice(1, -1);
    expect(first.HtmlBody).toContain(`href="${link}"`);
    expect(first.TextBody).toContain(`Unsubscribe: ${link}`);

    const progress = await getCampaign(ctx, result.campaignId);
    expect(progress).toMatchObject({ status: "sent", total: 1201, sent: 1201, failed: 0, pending: 0, createdBy: "boss" });
    const stored = await ctx.db.selectFrom("emailCampaigns").selectAll().where("id", "=", result.campaignId).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ sentCount: 1201, failedCount: 0, createdBy: adminId, lastError: null });
    expect(stored.finishedAt).not.toBeNull();
    const mail = await ctx.db.selectFrom("mailMessages").select(["status", "stream", "providerMessageId"]).execute();
    expect(mail).toHaveLength(1201);
    expect(mail.every((m) => m.status === "sent" && m.stream === "broadcast" && m.providerMessageId?.startsWith("pm-"))).toBe(true);
  });

  it("when the 2nd call fails, keeps the rest pending (partial); the resume mails only them, nobody twice", async () => {
    await addSubscribers(ctx, emails("buyer", 1201));
    const calls = postmarkBatch((n) =>
      n === 2 ? HttpResponse.json({ ErrorCode: 500, Message: "Internal server error" }, { status: 500 }) : "ok",
    );
    const first = await sendCampaign(ctx, { subject: "Part one", htmlContent: "<p>Hi</p>" }, adminId, { origin: ORIGIN });

    expect(calls.map((c) => c.length)).toEqual([500, 500]);
    expect(first.status).toBe("partial");
    expect(first.message).toMatch(
      /^Email sent to 500 of 1,201 subscribers; 701 not sent yet \(.+\)\. Resume the send to reach the rest\.$/,
    );
    const half = await getCampaign(ctx, first.campaignId);
    expect(half).toMatchObject({ status: "partial", sent: 500, pending: 701, failed: 0 });
    expect(half.lastError).toBeTruthy();
    // The failed call was not recorded as mail: nothing is known to have left.
    expect(await ctx.db.selectFrom("mailMessages").select("id").execute()).toHaveLength(500);

    const resumed = await resumeCampaign(ctx, first.campaignId, { origin: ORIGIN });
    expect(calls.map((c) => c.length)).toEqual([500, 500, 500, 201]);
    expect(resumed).toMatchObject({ status: "sent", message: "Email sent to 1,201 subscribers" });
    const delivered = [...calls[0]!, ...calls[2]!, ...calls[3]!].map((m) => m.To);
    expect(delivered).toHaveLength(1201);
    expect(new Set(delivered).size).toBe(1201);
    // The resume starts where the failed call did: its 500 are exactly the ones it lost.
    expect(calls[2]!.map((m) => m.To)).toEqual(calls[1]!.map((m) => m.To));

    await expect(resumeCampaign(ctx, first.campaignId, { origin: ORIGIN })).rejects.toThrow(
      "This email has already been sent to every subscriber.",
    );
    expect(calls).toHaveLength(4);
  });

  it("marks a message Postmark refused as failed, and a resume retries only that one", async () => {
    await addSubscribers(ctx, emails("pick", 3));
    const calls = postmarkBatch((n) => (n === 1 ? { "pick2@example.com": 406 } : "ok"));
    const sent = await sendCampaign(ctx, { subject: "Pick", htmlContent: "<p>Hi</p>" }, adminId, { origin: ORIGIN });
    expect(sent.status).toBe("partial");
    expect(await getCampaign(ctx, sent.campaignId)).toMatchObject({ sent: 2, failed: 1, pending: 0 });
    const failed = await ctx.db.selectFrom("campaignRecipients").selectAll().where("status", "=", "failed").executeTakeFirstOrThrow();
    expect(failed.email).toBe("pick2@example.com");
    expect(failed.error).toContain("Postmark error 406");

    await resumeCampaign(ctx, sent.campaignId, { origin: ORIGIN });
    expect(calls.map((c) => c.map((m) => m.To))).toEqual([
      ["pick1@example.com", "pick2@example.com", "pick3@example.com"],
      ["pick2@example.com"],
    ]);
    expect(await getCampaign(ctx, sent.campaignId)).toMatchObject({ status: "sent", sent: 3, failed: 0 });
  });

  it("skips someone who unsubscribes while the send runs, without calling it a failure", async () => {
    await addSubscribers(ctx, emails("mid", 501));
    const calls = postmarkBatch((n) => {
      if (n === 1)
        void ctx.db
          .updateTable("subscribers")
          .set({ unsubscribedAt: new Date().toISOString() })
          .where("email", "=", "mid501@example.com")
          .execute();
      return "ok";
    });
    const result = await sendCampaign(ctx, { subject: "Mid", htmlContent: "<p>Hi</p>" }, adminId, { origin: ORIGIN });
    expect(calls.map((c) => c.length)).toEqual([500]);
    expect(result).toMatchObject({ status: "sent", message: "Email sent to 500 subscribers" });
    expect(await getCampaign(ctx, result.campaignId)).toMatchObject({ total: 501, sent: 500, skipped: 1, failed: 0 });
  });

  it("never runs one campaign twice at once; a run that died is taken over once stale", async () => {
    await addSubscribers(ctx, emails("once", 2));
    postmarkBatch(() => "ok");
    const { campaignId } = await sendCampaign(ctx, { subject: "Once", htmlContent: "<p>Hi</p>" }, adminId, { origin: ORIGIN });
    await ctx.db.updateTable("campaignRecipients").set({ status: "pending" }).where("email", "=", "once2@example.com").execute();
    await ctx.db.updateTable("emailCampaigns").set({ status: "sending", updatedAt: ctx.clock.now().toISOString() }).execute();
    await expect(resumeCampaign(ctx, campaignId, { origin: ORIGIN })).rejects.toThrow("This email is being sent right now.");
    ctx.clock.advance(11 * 60 * 1000);
    expect(await resumeCampaign(ctx, campaignId, { origin: ORIGIN })).toMatchObject({ status: "sent" });
  });
});

describe("campaigns in local mode (the outbox)", () => {
  const ctx = createTestContext({ BRAND_NAME: "Legacy" });
  const admin = new CookieJar();
  let adminId: number;

  beforeAll(async () => {
    useAppContextForTests(ctx);
    adminId = await adminIdOf(ctx);
    await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
    await addSubscribers(ctx, ["ana@example.com", "ben@example.com", "cy@example.com", "gone@example.com"]);
    await ctx.db
      .updateTable("subscribers")
      .set({ unsubscribedAt: "2026-01-01T00:00:00.000Z" })
      .where("email", "=", "gone@example.com")
      .execute();
  });

  const page = async (method: "GET" | "POST", url: string, body?: string) => {
    const request = new Request(url, {
      method,
      body,
      headers: body ? { "Content-Type": "application/x-www-form-urlencoded" } : {},
    });
    const args = { request, params: {}, context: {} };
    const result = method === "GET" ? await unsubscribePage.loader(args) : await unsubscribePage.action(args);
    return result as unknown as { data: { state: string; email?: string }; init: { status?: number } | null };
  };

  it("puts one message per active subscriber in the outbox, each with a working unsubscribe link and headers", async () => {
    const response = await api("POST", "/api/admin/send-email", {
      body: { subject: "Launch", htmlContent: '<p>Shop <a href="/store">the drop</a></p>' },
      jar: admin,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ message: "Email sent to 3 subscribers", status: "sent" });

    const mail = await ctx.db.selectFrom("mailMessages").selectAll().where("stream", "=", "broadcast").orderBy("id").execute();
    expect(mail.map((m) => m.toAddress).sort()).toEqual(["ana@example.com", "ben@example.com", "cy@example.com"]);
    for (const m of mail) {
      expect(m).toMatchObject({ status: "stored", subject: "Launch", fromAddress: ctx.config.postmark.from });
      // Site-relative links point at the store the admin sent from.
      expect(m.htmlBody).toContain('href="http://localhost/store"');
      const headers = JSON.parse(m.headers ?? "{}") as Record<string, string>;
      expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
      const link = /href="(http:\/\/localhost\/unsubscribe\?token=[^"]+)"/.exec(m.htmlBody)![1]!;
      expect(headers["List-Unsubscribe"]).toBe(`<${link}>`);
      expect(m.textBody).toContain(link);
    }

    // Follow Ben's link: the page asks first, the one-click POST unsubscribes.
    const bens = /href="([^"]+\/unsubscribe\?token=[^"]+)"/.exec(mail.find((m) => m.toAddress === "ben@example.com")!.htmlBody)![1]!;
    const confirm = await page("GET", bens);
    expect(confirm.data).toMatchObject({ state: "confirm", email: "ben@example.com" });
    expect(
      (await ctx.db.selectFrom("subscribers").select("unsubscribedAt").where("email", "=", "ben@example.com").executeTakeFirstOrThrow())
        .unsubscribedAt,
    ).toBeNull();
    const done = await page("POST", bens, "List-Unsubscribe=One-Click");
    expect(done.data).toEqual({ state: "done", email: "ben@example.com" });
    expect(
      (await ctx.db.selectFrom("subscribers").select("unsubscribedAt").where("email", "=", "ben@example.com").executeTakeFirstOrThrow())
        .unsubscribedAt,
    ).not.toBeNull();
    expect((await page("GET", bens)).data).toMatchObject({ state: "done" });

    // The next send leaves Ben (and the long-gone address) out.
    await ctx.db.deleteFrom("mailMessages").execute();
    await sendCampaign(ctx, { subject: "Again", htmlContent: "<p>Again</p>" }, adminId, { origin: ORIGIN });
    const next = await ctx.db.selectFrom("mailMessages").select("toAddress").execute();
    expect(next.map((m) => m.toAddress).sort()).toEqual(["ana@example.com", "cy@example.com"]);
  });

  it("refuses a forged, altered or malformed token with 400 and unsubscribes nobody", async () => {
    const ana = await ctx.db.selectFrom("subscribers").select("id").where("email", "=", "ana@example.com").executeTakeFirstOrThrow();
    const cy = await ctx.db.selectFrom("subscribers").select("id").where("email", "=", "cy@example.com").executeTakeFirstOrThrow();
    const real = unsubscribeToken(ctx, ana.id);
    const forged = [
      `${ana.id}.${"A".repeat(43)}`,
      `${cy.id}.${real.split(".")[1]}`, // Ana's signature on Cy's id
      real.slice(0, -2),
      "",
      "../../etc/passwd",
    ];
    for (const token of forged) {
      const url = `http://localhost/unsubscribe?token=${encodeURIComponent(token)}`;
      for (const method of ["GET", "POST"] as const) {
        const result = await page(method, url, method === "POST" ? "List-Unsubscribe=One-Click" : undefined);
        expect(result.init?.status).toBe(400);
        expect(result.data.state).toBe("invalid");
      }
    }
    // Signed with another secret: refused too.
    const other = { ...ctx, config: { ...ctx.config, sessionSecret: "another-secret" } };
    expect((await page("POST", `http://localhost/unsubscribe?token=${unsubscribeToken(other, ana.id)}`, "x=1")).init?.status).toBe(400);
    const active = await ctx.db.selectFrom("subscribers").select("email").where("unsubscribedAt", "is", null).execute();
    expect(active.map((s) => s.email).sort()).toEqual(["ana@example.com", "cy@example.com"]);
  });

  it("sanitises the content before it is stored and sent", async () => {
    await ctx.db.deleteFrom("mailMessages").execute();
    const { campaignId } = await sendCampaign(
      ctx,
      {
        subject: "Safe",
        htmlContent:
          '<p style="color:red;background:url(https://t.example/x)">Hi</p><script>alert(1)</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">x</a><iframe src="https://evil.example"></iframe>',
      },
      adminId,
      { origin: ORIGIN },
    );
    const stored = await ctx.db.selectFrom("emailCampaigns").select("htmlContent").where("id", "=", campaignId).executeTakeFirstOrThrow();
    for (const html of [
      stored.htmlContent,
      ...(await ctx.db.selectFrom("mailMessages").select("htmlBody").execute()).map((m) => m.htmlBody),
    ]) {
      expect(html).not.toMatch(/<script|onerror|javascript:|<iframe|url\(/i);
    }
    expect(stored.htmlContent).toContain('<p style="color:red">Hi</p>');
  });

  it("asks for both subject and content, in the spec's words", async () => {
    for (const body of [{ subject: "", htmlContent: "<p>x</p>" }, { subject: "Hi", htmlContent: "  " }, { subject: "Hi" }, {}]) {
      const response = await api("POST", "/api/admin/send-email", { body, jar: admin });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(COMPOSE_MISSING);
    }
    // Content that is nothing but a script is empty once sanitised.
    await expect(
      sendCampaign(ctx, { subject: "Hi", htmlContent: "<script>alert(1)</script>" }, adminId, { origin: ORIGIN }),
    ).rejects.toThrow(COMPOSE_MISSING);
  });

  it("with Prefer: respond-async answers 202 at once; the progress is at the Location", async () => {
    const response = await api("POST", "/api/admin/send-email", {
      body: { subject: "Async", htmlContent: "<p>Hi</p>" },
      jar: admin,
      headers: { Prefer: "respond-async" },
    });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { campaignId: number; message: string };
    expect(body.message).toBe("Sending to 2 subscribers");
    expect(response.headers.get("Location")).toBe(`/api/admin/campaigns/${body.campaignId}`);
    await campaignSettled(body.campaignId);
    const progress = await api("GET", `/api/admin/campaigns/${body.campaignId}`, { jar: admin });
    expect(await progress.json()).toMatchObject({
      id: body.campaignId,
      subject: "Async",
      status: "sent",
      total: 2,
      sent: 2,
      pending: 0,
      createdBy: "boss",
    });
    const again = await api("POST", `/api/admin/campaigns/${body.campaignId}/resume`, { jar: admin });
    expect(again.status).toBe(409);
    expect((await api("GET", "/api/admin/campaigns/999999", { jar: admin })).status).toBe(404);
  });
});

describe("Postmark's subscription-change webhook", () => {
  const ctx = createTestContext();
  beforeAll(async () => {
    useAppContextForTests(ctx);
    await addSubscribers(ctx, ["hook@example.com", "stay@example.com"]);
  });
  // The same store with POSTMARK_WEBHOOK_USER=pm and POSTMARK_WEBHOOK_PASSWORD=secret.
  const withWebhook: TestContext = {
    ...ctx,
    config: { ...ctx.config, postmark: { ...ctx.config.postmark, webhook: { user: "pm", password: "secret" } } },
  };
  afterEach(() => useAppContextForTests(ctx));

  const event = {
    RecordType: "SubscriptionChange",
    MessageStream: "broadcast",
    Recipient: "Hook@Example.com",
    SuppressSending: true,
    SuppressionReason: "ManualSuppression",
  };
  const post = (body: unknown, auth?: string) =>
    api("POST", "/api/webhooks/postmark", {
      body,
      headers: auth ? { Authorization: `Basic ${Buffer.from(auth).toString("base64")}` } : {},
    });

  it("is not there (404) until its credentials are configured", async () => {
    expect((await post(event, "pm:secret")).status).toBe(404);
  });

  it("needs the Basic credentials, then marks the recipient unsubscribed", async () => {
    useAppContextForTests(withWebhook);
    const refused = await post(event);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toMatch(/^Basic/);
    expect((await post(event, "pm:wrong")).status).toBe(401);
    expect((await post(event, "other:secret")).status).toBe(401);

    expect((await post({ ...event, SuppressSending: false }, "pm:secret")).status).toBe(200);
    expect((await post({ RecordType: "Delivery", Recipient: "stay@example.com" }, "pm:secret")).status).toBe(200);
    const accepted = await post(event, "pm:secret");
    expect(accepted.status).toBe(200);
    const rows = await ctx.db.selectFrom("subscribers").select(["email", "unsubscribedAt"]).orderBy("email").execute();
    expect(rows.map((r) => [r.email, r.unsubscribedAt !== null])).toEqual([
      ["hook@example.com", true],
      ["stay@example.com", false],
    ]);
  });
});

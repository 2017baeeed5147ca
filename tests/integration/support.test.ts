import { http, HttpResponse } from "msw";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as supportPage from "#app/routes/support";
import { useAppContextForTests } from "#server/boot";
import { resetSupportLimits, sendSupportMessage } from "#server/services/store/support";
import { createTestContext } from "../setup/context";
import { api } from "../setup/http";
import { mockServer } from "../mocks/server";
import { POSTMARK_API } from "../mocks/postmark";
import { loggedAt } from "../setup/log-capture";

const valid = {
  name: "Rosa Díaz",
  email: "rosa@example.com",
  orderNumber: "A1B2C3D4",
  subject: "Where is my hoodie?",
  message: "It has been a week since the drop and nothing yet.",
  supportType: "shipping",
};

describe("support messages in local mode", () => {
  const ctx = createTestContext({ SUPPORT_EMAIL: "help@legacy.test" });
  beforeAll(() => useAppContextForTests(ctx));
  beforeEach(() => resetSupportLimits(ctx));

  it("stores the message and puts an e-mail to support in the outbox", async () => {
    const response = await api("POST", "/api/support/contact", { body: valid });
    expect(response.status).toBe(201);
    const { id } = await response.json();
    const stored = await ctx.db.selectFrom("supportMessages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: "Rosa Díaz", email: "rosa@example.com", supportType: "shipping", orderNumber: "A1B2C3D4" });
    const mail = await ctx.db.selectFrom("mailMessages").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail).toMatchObject({
      toAddress: "help@legacy.test",
      replyTo: "rosa@example.com",
      subject: `[Support #${id}] Where is my hoodie?`,
      stream: "outbound",
      status: "stored",
    });
    expect(mail.htmlBody).toContain("Shipping &amp; Delivery");
  });

  it("escapes what the customer wrote in the e-mail", async () => {
    await sendSupportMessage(ctx, { ...valid, supportType: "other", message: "<script>alert(1)</script> please" }, "1.1.1.1");
    const mail = await ctx.db.selectFrom("mailMessages").select("htmlBody").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail.htmlBody).not.toContain("<script>");
    expect(mail.htmlBody).toContain("&lt;script&gt;");
  });

  it("gives the spec's messages for every bad field and stores nothing", async () => {
    const before = await ctx.db.selectFrom("supportMessages").select("id").execute();
    const response = await api("POST", "/api/support/contact", {
      body: { name: "R", email: "nope", subject: "Hey", message: "short", supportType: "bogus" },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).errors).toEqual({
      name: ["Name must be at least 2 characters"],
      email: ["Please enter a valid email address"],
      subject: ["Subject must be at least 5 characters"],
      message: ["Message must be at least 10 characters"],
      supportType: ["Please choose what your message is about"],
    });
    expect(await ctx.db.selectFrom("supportMessages").select("id").execute()).toHaveLength(before.length);
  });

  it("defaults the topic to other and leaves the order number out when blank", async () => {
    const response = await api("POST", "/api/support/contact", {
      body: { name: "Al", email: "al@example.com", orderNumber: "", subject: "Sizing help", message: "Does the tee run small?" },
    });
    const { id } = await response.json();
    const stored = await ctx.db.selectFrom("supportMessages").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ supportType: "other", orderNumber: null });
  });

  it("limits one address to 5 messages in 10 minutes", async () => {
    for (let i = 0; i < 5; i++) expect((await api("POST", "/api/support/contact", { body: valid, ip: "9.9.9.9" })).status).toBe(201);
    const blocked = await api("POST", "/api/support/contact", { body: valid, ip: "9.9.9.9" });
    expect(blocked.status).toBe(429);
    expect((await blocked.json()).message).toMatch(/^Too many messages from your network\./);
  });

  it("the page's form action answers with the sent state, or the field messages", async () => {
    const form = (fields: Record<string, string>) => {
      const body = new URLSearchParams(fields);
      return new Request("http://localhost/support", {
        method: "POST",
        body,
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
    };
    const ok = (await supportPage.action({ request: form(valid), params: {}, context: { clientIp: "5.5.5.5" } })) as unknown as {
      data: { sent: boolean; notice: { title: string; description: string } };
    };
    expect(ok.data.sent).toBe(true);
    expect(ok.data.notice).toMatchObject({ title: "Message sent successfully", description: "We'll get back to you within 24 hours." });
    const bad = (await supportPage.action({
      request: form({ ...valid, subject: "Hi" }),
      params: {},
      context: { clientIp: "5.5.5.6" },
    })) as unknown as {
      data: { sent: boolean; lastResult: { error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(bad.data.sent).toBe(false);
    expect(bad.init.status).toBe(400);
    expect(bad.data.lastResult.error.subject).toEqual(["Subject must be at least 5 characters"]);
  });
});

describe("/support from the order page's link (decision 0051)", () => {
  const ctx = createTestContext();
  beforeAll(() => useAppContextForTests(ctx));
  const load = (query: string) => supportPage.loader({ request: new Request(`http://localhost/support${query}`), params: {}, context: {} });

  it("fills the order number from ?orderNumber=, as the order page writes it, in a page nobody keeps", async () => {
    for (const [query, number] of [
      ["?orderNumber=AB12CD34", "AB12CD34"],
      ["?orderNumber=%23ab12cd34", "AB12CD34"],
      ["?orderNumber=42", "42"],
    ] as const) {
      const answer = await load(query);
      expect(answer.data, query).toEqual({ orderNumber: number });
      expect(new Headers(answer.init?.headers).get("Cache-Control"), query).toBe("private, no-store");
    }
  });

  it("fills nothing, and leaves the page to the cache, for no number or anything that is not one", async () => {
    for (const query of ["", "?orderNumber=", "?orderNumber=%3Cscript%3E", `?orderNumber=${"A".repeat(21)}`, "?order=AB12"]) {
      const answer = await load(query);
      expect(answer.data, query).toEqual({ orderNumber: null });
      expect(new Headers(answer.init?.headers).get("Cache-Control"), query).toBeNull();
    }
  });
});

describe("support messages through Postmark", () => {
  const ctx = createTestContext({
    POSTMARK_SERVER_TOKEN: "pm-token",
    POSTMARK_FROM: "store@legacy.test",
    SUPPORT_EMAIL: "help@legacy.test",
  });
  beforeAll(() => useAppContextForTests(ctx));
  beforeEach(() => resetSupportLimits(ctx));

  it("sends on the transactional stream with the customer as Reply-To", async () => {
    const seen: Record<string, unknown>[] = [];
    mockServer.use(
      http.post(`${POSTMARK_API}/email`, async ({ request }) => {
        expect(request.headers.get("X-Postmark-Server-Token")).toBe("pm-token");
        seen.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json({
          To: "help@legacy.test",
          SubmittedAt: new Date().toISOString(),
          MessageID: "pm-1",
          ErrorCode: 0,
          Message: "OK",
        });
      }),
    );
    await sendSupportMessage(ctx, { ...valid, supportType: "order" }, "2.2.2.2");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      From: "store@legacy.test",
      To: "help@legacy.test",
      ReplyTo: "rosa@example.com",
      MessageStream: "outbound",
    });
    const mail = await ctx.db.selectFrom("mailMessages").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail).toMatchObject({ status: "sent", providerMessageId: "pm-1" });
  });

  it("keeps the message when Postmark fails, and records the failure", async () => {
    mockServer.use(
      http.post(`${POSTMARK_API}/email`, () => HttpResponse.json({ ErrorCode: 300, Message: "Invalid email request" }, { status: 422 })),
    );
    const { id } = await sendSupportMessage(ctx, valid as never, "3.3.3.3");
    expect(loggedAt("warn")).toEqual([expect.stringMatching(/^Support message #\d+ stored, but its e-mail failed: /)]);
    expect(await ctx.db.selectFrom("supportMessages").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();
    const mail = await ctx.db.selectFrom("mailMessages").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
    expect(mail.status).toBe("failed");
    expect(mail.error).toContain("Invalid email request");
  });
});

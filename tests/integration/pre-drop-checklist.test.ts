import { beforeAll, describe, expect, it } from "vitest";
import { action as testEmailAction } from "#app/routes/admin._index";
import { useAppContextForTests } from "#server/boot";
import type { ChecklistItem } from "#server/contracts/drops";
import { preDropChecklist } from "#server/services/drop/pre-drop-checklist";
import { saveCountdown } from "#server/services/drop/drops";
import { sendTestEmail } from "#server/services/mail/test-email";
import { ensureAdmin } from "#server/services/accounts/users";
import { updateWaitingRoom } from "#server/services/drop/waiting-room-admin";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addImage, addProduct, runRoute } from "./store-helpers";

/** The pre-drop checklist against a store this file sets up: each line's level and reason. */

const ctx = createTestContext();
// A store with Postmark and Stripe keys (vendor HTTP is mocked).
const live = createTestContext({
  POSTMARK_SERVER_TOKEN: "postmark-test-token",
  STRIPE_SECRET_KEY: "sk_live_123",
  STRIPE_PUBLISHABLE_KEY: "pk_live_123",
});
// Stripe's test keys: the store runs through Stripe, but no real card is charged.
const stripeTest = createTestContext({ STRIPE_SECRET_KEY: "sk_test_123", STRIPE_PUBLISHABLE_KEY: "pk_test_123" });
const admin = new CookieJar();
const T0 = "2026-06-03T22:00:00.000Z";

const byId = (items: ChecklistItem[]) =>
  Object.fromEntries(items.map((i) => [i.id, { level: i.level, reason: i.reason, fixHref: i.fixHref }]));

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await saveCountdown(ctx, T0);
  const release = { isCountdownRestricted: 1 as const, countdownReleaseDate: T0 };
  const tee = await addProduct(ctx, { name: "Ready Tee", priceCents: 4000, inventory: 5, ...release });
  await addImage(ctx, tee, { isPrimary: 1 });
  await addProduct(ctx, { name: "Bare Hoodie", priceCents: 9000, discountPercent: 100, inventory: 0, ...release });
  // Not the drop's: hidden, or on sale already (another drop's products are not checked).
  await addProduct(ctx, { name: "Hidden Cap", discountPercent: 100, inventory: 0, isVisible: 0, ...release });
  await addProduct(ctx, { name: "Old Socks", priceCents: 1000, inventory: 0 });
  await updateWaitingRoom(ctx, { enabled: false });
});

describe("GET /api/admin/pre-drop-checklist", () => {
  it("says what is ready and what is not, with the page that fixes it", async () => {
    const response = await api("GET", "/api/admin/pre-drop-checklist", { jar: admin });
    expect(response.status).toBe(200);
    const checklist = await response.json();
    expect(checklist).toMatchObject({ countdownAt: T0, ahead: true });
    expect(checklist.items.map((i: ChecklistItem) => i.id)).toEqual([
      "products",
      "stock",
      "prices",
      "countdown",
      "payments",
      "shipFrom",
      "mail",
      "waitingRoom",
      "earlyAccess",
    ]);
    expect(byId(checklist.items)).toEqual({
      products: { level: "amber", reason: "No image: Bare Hoodie.", fixHref: "/admin/products" },
      stock: { level: "amber", reason: "Out of stock: Bare Hoodie.", fixHref: "/admin/products" },
      prices: { level: "red", reason: "Sells for $0 (a 100% discount): Bare Hoodie.", fixHref: "/admin/products" },
      // The test clock stands at 2026-06-01T12:00Z.
      countdown: { level: "green", reason: "T-0 is in 2 days.", fixHref: "/admin/app-settings" },
      payments: { level: "red", reason: "Test mode: no card is charged. Set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY.", fixHref: null },
      shipFrom: {
        level: "amber",
        reason: "Labels would show the demo warehouse: set SHIP_FROM_STREET, SHIP_FROM_CITY, SHIP_FROM_STATE, SHIP_FROM_ZIP.",
        fixHref: "/admin/settings",
      },
      mail: {
        level: "red",
        reason: "Mail goes to the local outbox only: buyers get no confirmation. Set POSTMARK_SERVER_TOKEN and POSTMARK_FROM.",
        fixHref: "/admin/outbox",
      },
      waitingRoom: { level: "amber", reason: "The waiting room is off: the whole crowd reaches the store at T-0.", fixHref: "/admin/drop" },
      earlyAccess: {
        level: "amber",
        reason: "No early-access mail for this drop: send a campaign with {{early_access_link}}.",
        fixHref: "/admin/email",
      },
    });
  });

  it("turns green as the admin fixes things", async () => {
    await ctx.db
      .updateTable("products")
      .set({ discountPercent: 0, inventory: 3, imageUrl: "/uploads/hoodie.jpg" })
      .where("name", "=", "Bare Hoodie")
      .execute();
    await updateWaitingRoom(ctx, { enabled: true, admitPerMinute: 120 });
    const { id: campaignId } = await ctx.db
      .insertInto("emailCampaigns")
      .values({ subject: "You're in", htmlContent: "<p>{{early_access_link}}</p>", status: "sent" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto("earlyAccessLinks")
      .values([
        { email: "a@example.com", campaignId, createdAt: ctx.clock.now().toISOString() },
        { email: "b@example.com", campaignId, createdAt: ctx.clock.now().toISOString() },
      ])
      .execute();
    const { items } = await (await api("GET", "/api/admin/pre-drop-checklist", { jar: admin })).json();
    expect(byId(items)).toMatchObject({
      products: { level: "green", reason: "2 products visible, each with an image." },
      stock: { level: "green", reason: "8 units in stock across 2 products." },
      prices: { level: "green", reason: "Every product has a price." },
      waitingRoom: { level: "green", reason: "Lets in 120 a minute, opens 15 minutes before T-0." },
      earlyAccess: { level: "green", reason: "Early-access links mailed to 2 subscribers." },
    });
  });

  it("says no countdown is ahead once T-0 has passed", async () => {
    ctx.clock.set("2026-06-04T00:00:00.000Z");
    const checklist = await preDropChecklist(ctx);
    expect(checklist.ahead).toBe(false);
    expect(checklist.items.find((i) => i.id === "countdown")).toMatchObject({
      level: "red",
      reason: "The countdown date has passed: set the next drop's date.",
    });
    ctx.clock.set("2026-06-01T12:00:00.000Z");
  });
});

describe("the test e-mail", () => {
  it("POST /api/admin/test-email mails the signed-in admin and is recorded", async () => {
    const response = await api("POST", "/api/admin/test-email", { jar: admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Test e-mail sent to boss@example.com." });
    const rows = await ctx.db
      .selectFrom("mailMessages")
      .select(["toAddress", "subject", "status"])
      .where("tag", "=", "test-email")
      .execute();
    expect(rows).toEqual([{ toAddress: "boss@example.com", subject: "Test e-mail from Legacy", status: "stored" }]);
  });

  it("the checklist's button (a form post without JavaScript) sends one and goes back to /admin", async () => {
    const result = await runRoute(testEmailAction, { path: "/admin?index", form: {}, jar: admin });
    expect(result.status).toBe(302);
    expect(result.headers.get("Location")).toBe("/admin");
    const count = await ctx.db
      .selectFrom("mailMessages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("tag", "=", "test-email")
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
  });

  it("with Stripe's test keys: payments amber, saying no real card is charged", async () => {
    await saveCountdown(stripeTest, T0);
    expect(byId((await preDropChecklist(stripeTest)).items).payments).toEqual({
      level: "amber",
      reason: "Stripe test keys: no real card is charged. Set the live keys (sk_live_…, pk_live_…) before the drop.",
      fixHref: null,
    });
  });

  it("with Postmark and Stripe set: mail is amber until a test e-mail goes out, then green; payments live", async () => {
    await saveCountdown(live, T0);
    const before = byId((await preDropChecklist(live)).items);
    expect(before.payments).toEqual({ level: "green", reason: "Stripe takes the payments.", fixHref: null });
    expect(before.mail).toMatchObject({ level: "amber", reason: "Postmark is set, but no test e-mail was sent yet." });
    expect(await sendTestEmail(live, "owner@example.com")).toEqual({ message: "Test e-mail sent to owner@example.com." });
    live.clock.advance(5 * 60_000);
    expect(byId((await preDropChecklist(live)).items).mail).toMatchObject({
      level: "green",
      reason: "Postmark is set; a test e-mail went out 5 minutes ago.",
    });
  });
});

import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as earlyPage from "#app/routes/early-access.$token";
import * as storePage from "#app/routes/store._index";
import * as productPage from "#app/routes/store.$productId";
import type { PublicProduct } from "#server/contracts/catalog";
import { useAppContextForTests } from "#server/boot";
import { sendCampaign } from "#server/services/mail/campaigns";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

// Issue 12 part 2 (decision 0020): signed, single-use, revocable early-access links.
const ctx = createTestContext();
const admin = new CookieJar();
const NOW = "2026-06-01T12:00:00.000Z";
// The drop is released 20 minutes from NOW: inside the default 30-minute window.
const RELEASE = "2026-06-01T12:20:00.000Z";
let dropId: number;
let adminId: number;

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  dropId = await addProduct(ctx, { name: "Secret Drop Parka", inventory: 5, isCountdownRestricted: 1, countdownReleaseDate: RELEASE });
  for (const email of ["fan@example.com", "other@example.com", "late@example.com"]) {
    await ctx.db.insertInto("subscribers").values({ email, subscribedAt: NOW }).execute();
  }
  const user = await ctx.db.selectFrom("users").select("id").where("username", "=", "boss").executeTakeFirstOrThrow();
  adminId = user.id;
});
beforeEach(() => ctx.clock.set(NOW));

const tokenOf = (url: string) => url.split("/early-access/")[1]!;

async function makeLink(email: string): Promise<{ id: number; url: string }> {
  const response = await api("POST", "/api/admin/early-access", { jar: admin, body: { email } });
  expect(response.status).toBe(201);
  return response.json();
}

const openLink = (token: string, jar: CookieJar) =>
  runRoute<{ kind: string; message?: string }>(earlyPage.loader, { path: `/early-access/${token}`, params: { token }, jar });
const claimLink = (token: string, jar: CookieJar) =>
  runRoute<{ kind: string; message?: string }>(earlyPage.action, { path: `/early-access/${token}`, params: { token }, form: {}, jar });

const productNames = async (jar?: CookieJar): Promise<string[]> =>
  ((await (await api("GET", "/api/products", { jar })).json()) as PublicProduct[]).map((p) => p.name);

const customerInfo = {
  email: "fan@example.com",
  name: "Fan One",
  phone: "",
  street: "1 Main St",
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
};

describe("an early-access link, end to end", () => {
  it("opens for one browser: the restricted product is visible and orderable there, and nowhere else", async () => {
    const { url } = await makeLink("FAN@example.com");
    expect(url).toMatch(/^http:\/\/localhost\/early-access\/\d+\.[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(url);
    const mine = new CookieJar();
    const stranger = new CookieJar();

    // Opening (GET) changes nothing: a mail scanner cannot use the link up.
    expect((await openLink(token, mine)).data).toMatchObject({ kind: "ready" });
    expect(await productNames(mine)).not.toContain("Secret Drop Parka");

    const claimed = await claimLink(token, mine);
    expect(claimed.status).toBe(302);
    expect(claimed.headers.get("Location")).toBe("/store");
    expect(mine.has("early_access")).toBe(true);

    // Visible for that browser, on every door, and nowhere else.
    expect(await productNames(mine)).toContain("Secret Drop Parka");
    expect(await productNames(stranger)).not.toContain("Secret Drop Parka");
    const grid = await runRoute<{ products: PublicProduct[] }>(storePage.loader, { path: "/store", jar: mine });
    expect(grid.data.products.map((p) => p.name)).toContain("Secret Drop Parka");
    expect(grid.headers.get("Cache-Control")).toBe("private, no-store");
    const detail = await runRoute(productPage.loader, { path: `/store/${dropId}`, params: { productId: String(dropId) }, jar: mine });
    expect(detail.status).toBe(200);
    const hidden = await runRoute(productPage.loader, { path: `/store/${dropId}`, params: { productId: String(dropId) }, jar: stranger });
    expect(hidden.status).toBe(404);
    expect((await api("POST", "/api/cart", { jar: stranger, body: { productId: dropId } })).status).toBe(404);

    // Orderable: into the bag and through Process Order, holding a unit.
    expect((await api("POST", "/api/cart", { jar: mine, body: { productId: dropId } })).status).toBe(201);
    const order = await api("POST", "/api/process-order", { jar: mine, body: { customerInfo, shippingMethod: "usps-ground_saver" } });
    expect(order.status).toBe(201);
    expect((await order.json()).orderSummary.items[0].name).toBe("Secret Drop Parka");
    const stock = await ctx.db.selectFrom("products").select("inventory").where("id", "=", dropId).executeTakeFirstOrThrow();
    expect(stock.inventory).toBe(4);

    // The same link in a second browser: refused, with the exact words, on opening and on claiming.
    const second = await openLink(token, stranger);
    expect(second.status).toBe(410);
    expect(second.data).toMatchObject({ kind: "refused", message: "This early-access link has already been used." });
    const secondClaim = await claimLink(token, stranger);
    expect(secondClaim.status).toBe(409);
    expect(stranger.has("early_access")).toBe(false);
    expect(await productNames(stranger)).not.toContain("Secret Drop Parka");

    // The first browser opening it again simply goes to the store.
    const again = await openLink(token, mine);
    expect(again.status).toBe(302);
  });

  it("a revoked link is refused, and revoking an opened one ends its pass at once", async () => {
    const unopened = await makeLink("other@example.com");
    const revoked = await api("POST", `/api/admin/early-access/${unopened.id}/revoke`, { jar: admin });
    expect((await revoked.json()).status).toBe("revoked");
    const jar = new CookieJar();
    expect((await openLink(tokenOf(unopened.url), jar)).data).toMatchObject({ message: "This early-access link has been revoked." });
    expect((await claimLink(tokenOf(unopened.url), jar)).status).toBe(409);
    expect(jar.has("early_access")).toBe(false);

    const opened = await makeLink("other@example.com");
    const holder = new CookieJar();
    await claimLink(tokenOf(opened.url), holder);
    expect(await productNames(holder)).toContain("Secret Drop Parka");
    await api("POST", `/api/admin/early-access/${opened.id}/revoke`, { jar: admin });
    expect(await productNames(holder)).not.toContain("Secret Drop Parka");
    expect((await api("POST", "/api/cart", { jar: holder, body: { productId: dropId } })).status).toBe(404);
  });

  it("too early, it says when it will work; after the release it simply leads to the store", async () => {
    const { url } = await makeLink("late@example.com");
    const jar = new CookieJar();
    ctx.clock.set("2026-06-01T11:00:00.000Z");
    const early = await openLink(tokenOf(url), jar);
    expect(early.data).toMatchObject({
      kind: "tooEarly",
      message: "This early-access link works from Monday, June 1, 2026 at 7:50 AM EDT.",
    });
    expect((await claimLink(tokenOf(url), jar)).status).toBe(409);
    expect(jar.has("early_access")).toBe(false);

    ctx.clock.set("2026-06-01T12:21:00.000Z");
    const after = await openLink(tokenOf(url), jar);
    expect(after.status).toBe(302);
    expect(after.headers.get("Location")).toBe("/store");
  });

  it("two browsers claiming one link at the same moment: exactly one gets the pass", async () => {
    const { url } = await makeLink("late@example.com");
    const jars = [new CookieJar(), new CookieJar()];
    const results = await Promise.all(jars.map((jar) => claimLink(tokenOf(url), jar)));
    expect(results.map((r) => r.status).sort()).toEqual([302, 409]);
    expect(jars.filter((jar) => jar.has("early_access"))).toHaveLength(1);
  });

  it("a forged or altered link is not valid", async () => {
    const { url } = await makeLink("late@example.com");
    const altered = tokenOf(url).replace(/^\d+/, (id) => String(Number(id) + 1000));
    const opened = await openLink(altered, new CookieJar());
    expect(opened.status).toBe(404);
    expect(opened.data).toMatchObject({ message: "This early-access link is not valid." });
  });

  it("the admin's window setting decides when links open (default 30 minutes)", async () => {
    const overview = await (await api("GET", "/api/admin/early-access", { jar: admin })).json();
    expect(overview.earlyMinutes).toBe(30);
    expect((await api("PUT", "/api/admin/early-access/settings", { jar: admin, body: { earlyMinutes: 0 } })).status).toBe(400);
    expect((await api("PUT", "/api/admin/early-access/settings", { jar: admin, body: { earlyMinutes: 10 } })).status).toBe(200);
    const { url } = await makeLink("late@example.com");
    expect((await openLink(tokenOf(url), new CookieJar())).data).toMatchObject({
      message: "This early-access link works from Monday, June 1, 2026 at 8:10 AM EDT.",
    });
    await api("PUT", "/api/admin/early-access/settings", { jar: admin, body: { earlyMinutes: 30 } });
  });

  it("only admins make links, and only for subscribers", async () => {
    expect((await api("POST", "/api/admin/early-access", { body: { email: "fan@example.com" } })).status).toBe(401);
    const nobody = await api("POST", "/api/admin/early-access", { jar: admin, body: { email: "nobody@example.com" } });
    expect(nobody.status).toBe(404);
    expect((await nobody.json()).message).toBe("No subscriber has this e-mail address.");
  });
});

describe("{{early_access_link}} in a campaign", () => {
  it("gives each recipient their own working link, made when the campaign is sent", async () => {
    await ctx.db.deleteFrom("mailMessages").execute();
    const before = (await ctx.db.selectFrom("earlyAccessLinks").select("id").execute()).length;
    await sendCampaign(ctx, { subject: "You're in early", htmlContent: '<p><a href="{{early_access_link}}">Shop early</a></p>' }, adminId, {
      origin: "https://shop.example",
    });
    const mails = await ctx.db.selectFrom("mailMessages").select(["toAddress", "htmlBody", "textBody"]).orderBy("toAddress").execute();
    expect(mails.map((m) => m.toAddress)).toEqual(["fan@example.com", "late@example.com", "other@example.com"]);
    const links = mails.map((m) => /href="(https:\/\/shop\.example\/early-access\/[^"]+)"/.exec(m.htmlBody)?.[1]);
    expect(new Set(links).size).toBe(3);
    expect(mails.every((m) => !m.htmlBody.includes("{{early_access_link}}"))).toBe(true);
    expect((await ctx.db.selectFrom("earlyAccessLinks").select("id").execute()).length).toBe(before + 3);
    // Each one works, once.
    const jar = new CookieJar();
    await claimLink(tokenOf(links[1]!), jar);
    expect(await productNames(jar)).toContain("Secret Drop Parka");
  });
});

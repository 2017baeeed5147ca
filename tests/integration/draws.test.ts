import { spawn } from "node:child_process";
import { beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { cartSessionIdOf } from "#server/http/cart-session";
import { ensureAdmin } from "#server/services/accounts/users";
import { claimDrawUnit, drawClaimLanding } from "#server/services/drop/draw-claims";
import { confirmDrawEntry, drawEntryView, resetDrawEntryLimits } from "#server/services/drop/draw-entries";
import { drawToken } from "#server/services/drop/draw-links";
import { chainOf, commitmentOf, emailHashOf, runDraw, verifyProof } from "#server/services/drop/draw-math";
import { drawNow, passDownLapsedClaims } from "#server/services/drop/draw-run";
import { sweep } from "#server/services/jobs/sweeper";
import { sendCampaign } from "#server/services/mail/campaigns";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct } from "./store-helpers";

// Issue 26 (decision 0047): a product sold by a verifiable draw.
const ctx = createTestContext();
const admin = new CookieJar();
const NOW = "2026-06-01T12:00:00.000Z";
const OPEN = "2026-06-01T13:00:00.000Z";
const CLOSE = "2026-06-01T14:00:00.000Z";
const AFTER = "2026-06-01T14:00:01.000Z";
const customerInfo = {
  email: "winner@example.com",
  name: "Win Ner",
  phone: "",
  street: "5 Elm St",
  city: "Austin",
  state: "TX",
  zipCode: "73301",
  country: "US",
};

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
});
beforeEach(async () => {
  ctx.clock.set(NOW);
  await resetDrawEntryLimits(ctx);
});

async function newDraw(options: { inventory?: number; units?: number; claimMinutes?: number; name?: string } = {}) {
  const productId = await addProduct(ctx, { name: options.name ?? "Archive Jacket", inventory: options.inventory ?? 2 });
  const response = await api("POST", "/api/admin/draws", {
    jar: admin,
    body: { productId, entriesOpenAt: OPEN, entriesCloseAt: CLOSE, claimMinutes: options.claimMinutes ?? 60, units: options.units },
  });
  expect(response.status).toBe(201);
  const draw = (await response.json()) as { id: number; commitment: string; units: Record<string, number> };
  return { productId, draw };
}

const mailsTo = (email: string) =>
  ctx.db.selectFrom("mailMessages").select(["subject", "htmlBody", "tag"]).where("toAddress", "=", email).orderBy("id").execute();

const confirmTokenOf = (html: string) => /\/draws\/\d+\/confirm\/([^"]+)"/.exec(html)?.[1];
const claimTokenOf = (html: string) => /\/draws\/\d+\/claim\/([^"]+)"/.exec(html)?.[1];

/** Enters and confirms, as a person does: the form, then the link in the e-mail. */
async function enterAndConfirm(drawId: number, email: string, ip = "198.51.100.1") {
  const response = await api("POST", `/api/draws/${drawId}/entries`, { body: { email }, ip });
  expect(response.status).toBe(202);
  const mail = (await mailsTo(email)).find((m) => m.tag === "draw-confirm")!;
  const token = confirmTokenOf(mail.htmlBody)!;
  return confirmDrawEntry(ctx, drawId, token);
}

async function bagOf(jar: CookieJar): Promise<string> {
  const other = await addProduct(ctx, { name: "Sticker", inventory: 100 });
  expect((await api("POST", "/api/cart", { body: { productId: other }, jar })).status).toBe(201);
  await api("DELETE", `/api/cart/${other}`, { jar });
  return (await cartSessionIdOf(ctx, new Request("http://localhost/", { headers: { Cookie: jar.header() } })))!;
}

describe("creating a draw", () => {
  it("commits to a secret seed before entries open, and the product can no longer be bagged", async () => {
    const { productId, draw } = await newDraw({ name: "Varsity Jacket", inventory: 3 });
    const row = await ctx.db.selectFrom("draws").selectAll().where("id", "=", draw.id).executeTakeFirstOrThrow();
    expect(row.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(draw.commitment).toBe(commitmentOf(row.seed));
    expect(draw.units).toEqual({ "": 3 });
    expect(JSON.stringify(draw)).not.toContain(row.seed);

    const shown = await api("GET", `/api/draws/${draw.id}`);
    expect(await shown.json()).toEqual({
      id: draw.id,
      product: { id: productId, name: "Varsity Jacket" },
      state: "upcoming",
      entriesOpenAt: OPEN,
      entriesCloseAt: CLOSE,
      commitment: draw.commitment,
      entryCount: 0,
      chain: draw.commitment,
      sizes: [],
    });
    expect((await api("GET", `/api/draws/${draw.id}/proof`)).status).toBe(404);

    const bag = await api("POST", "/api/cart", { body: { productId }, jar: new CookieJar() });
    expect(bag.status).toBe(409);
    expect(await bag.json()).toEqual({ message: "Varsity Jacket is sold by draw.", errors: {} });
  });

  it("refuses a second draw for the product, more units than the stock, and deleting once entries opened", async () => {
    const { productId, draw } = await newDraw({ inventory: 2 });
    const again = await api("POST", "/api/admin/draws", { jar: admin, body: { productId, entriesOpenAt: OPEN, entriesCloseAt: CLOSE } });
    expect(again.status).toBe(409);
    const other = await addProduct(ctx, { inventory: 2 });
    const tooMany = await api("POST", "/api/admin/draws", {
      jar: admin,
      body: { productId: other, entriesOpenAt: OPEN, entriesCloseAt: CLOSE, units: 3 },
    });
    expect(tooMany.status).toBe(400);
    const backwards = await api("POST", "/api/admin/draws", {
      jar: admin,
      body: { productId: other, entriesOpenAt: CLOSE, entriesCloseAt: OPEN },
    });
    expect((await backwards.json()).message).toBe("Entries must close after they open.");

    ctx.clock.set(OPEN);
    const late = await api("DELETE", `/api/admin/draws/${draw.id}`, { jar: admin });
    expect(late.status).toBe(409);
    ctx.clock.set(NOW);
    expect((await api("DELETE", `/api/admin/draws/${draw.id}`, { jar: admin })).status).toBe(200);
    expect((await api("GET", `/api/draws/${draw.id}`)).status).toBe(404);
    expect((await api("POST", "/api/cart", { body: { productId }, jar: new CookieJar() })).status).toBe(201);
  });

  it("is for admins only", async () => {
    expect((await api("GET", "/api/admin/draws")).status).toBe(401);
  });
});

describe("entering", () => {
  it("takes entries only while open, mails a confirmation link, and numbers and chains confirmed entries", async () => {
    const { draw } = await newDraw();
    const early = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "ann@example.com" } });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe("Entries for this draw are not open.");

    ctx.clock.set(OPEN);
    const entered = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "Ann@Example.com", name: "Ann" } });
    expect(entered.status).toBe(202);
    expect(await entered.json()).toEqual({ message: "Check your e-mail to confirm your entry." });
    const [mail] = await mailsTo("ann@example.com");
    expect(mail!.subject).toBe("Confirm your entry: Archive Jacket");
    const token = confirmTokenOf(mail!.htmlBody)!;
    expect(token).toBeTruthy();

    // Not confirmed yet: not counted, not chained.
    expect((await drawEntryView(ctx, draw.id, token)).confirmed).toBe(false);
    expect((await (await api("GET", `/api/draws/${draw.id}`)).json()).entryCount).toBe(0);

    const view = await confirmDrawEntry(ctx, draw.id, token);
    const ann = emailHashOf(draw.id, "ann@example.com");
    expect(view.receipt).toEqual({
      n: 1,
      emailHash: ann,
      chain: chainOf(draw.commitment, [{ n: 1, emailHash: ann, size: "" }]),
      commitment: draw.commitment,
    });
    // Again: unchanged.
    expect((await confirmDrawEntry(ctx, draw.id, token)).receipt).toEqual(view.receipt);
    await enterAndConfirm(draw.id, "bob@example.com");
    const shown = await (await api("GET", `/api/draws/${draw.id}`)).json();
    expect(shown).toMatchObject({ state: "open", entryCount: 2 });
    expect(shown.chain).toBe(
      chainOf(draw.commitment, [
        { n: 1, emailHash: ann, size: "" },
        { n: 2, emailHash: emailHashOf(draw.id, "bob@example.com"), size: "" },
      ]),
    );
    // A forged token is no entry.
    await expect(confirmDrawEntry(ctx, draw.id, `${token.split(".")[0]}.${"A".repeat(43)}`)).rejects.toThrow(
      "This confirmation link is not valid.",
    );
  });

  it("answers a repeat by the same person the same 202 and changes nothing", async () => {
    const { draw } = await newDraw();
    ctx.clock.set(OPEN);
    expect((await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "carla.dee@gmail.com" } })).status).toBe(202);
    for (const email of ["CarlaDee+draw@gmail.com", "c.a.r.l.a.d.e.e@googlemail.com"]) {
      const repeat = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email, name: "Someone else" } });
      expect(repeat.status).toBe(202);
      expect(await repeat.json()).toEqual({ message: "Check your e-mail to confirm your entry." });
    }
    const rows = await ctx.db.selectFrom("drawEntries").select(["email", "name"]).where("drawId", "=", draw.id).execute();
    expect(rows).toEqual([{ email: "carla.dee@gmail.com", name: null }]);
    expect((await mailsTo("CarlaDee+draw@gmail.com".toLowerCase())).length).toBe(0);
  });

  it("refuses a filled honeypot, a size the product lacks, and a network entering too often", async () => {
    const { draw } = await newDraw();
    ctx.clock.set(OPEN);
    const bot = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "bot@example.com", website: "x" } });
    expect(bot.status).toBe(400);
    const sized = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "s@example.com", size: "XL" } });
    expect(sized.status).toBe(400);
    expect((await sized.json()).message).toBe("Please choose a size.");
    for (let i = 0; i < 20; i++) {
      expect((await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: `p${i}@example.com` }, ip: "192.0.2.9" })).status).toBe(
        202,
      );
    }
    const over = await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "p21@example.com" }, ip: "192.0.2.9" });
    expect(over.status).toBe(429);
    expect(
      await ctx.db.selectFrom("drawEntries").select("id").where("email", "in", ["bot@example.com", "p21@example.com"]).execute(),
    ).toEqual([]);
  });
});

function drawer(drawId: number, startAt: number): Promise<{ drew: boolean; message?: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "tests/fixtures/draw-drawer.ts", ctx.config.dataDir, String(drawId), String(startAt)],
      {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, STORE_TEST_DATABASE: JSON.stringify(ctx.config.database) },
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    onTestFinished(() => void child.kill("SIGKILL"));
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`drawer exited with ${code}:\n${stderr}`));
      resolve(JSON.parse(stdout.trim().split("\n").pop()!) as { drew: boolean; message?: string });
    });
  });
}

describe("drawing", () => {
  it("is refused before the close, then gives the HMAC order, a proof that verifies, and mails everyone", async () => {
    const { draw } = await newDraw({ inventory: 2 });
    ctx.clock.set(OPEN);
    const emails = ["a1@example.com", "a2@example.com", "a3@example.com", "a4@example.com", "a5@example.com"];
    for (const email of emails) await enterAndConfirm(draw.id, email);
    // Entered, never confirmed: not drawn, not mailed.
    await api("POST", `/api/draws/${draw.id}/entries`, { body: { email: "lazy@example.com" } });

    const early = await api("POST", `/api/admin/draws/${draw.id}/draw`, { jar: admin, body: { beacon: "round-1" } });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe("Entries are still open: the draw can be made after they close.");

    ctx.clock.set(AFTER);
    const drawn = await api("POST", `/api/admin/draws/${draw.id}/draw`, { jar: admin, body: { beacon: "round-1" } });
    expect(drawn.status).toBe(200);
    const detail = await drawn.json();
    expect(detail).toMatchObject({ state: "drawn", beacon: "round-1", confirmed: 5, entries: 6 });
    expect(detail.perSize).toEqual([{ size: "", units: 2, entries: 6, confirmed: 5, winners: 2, claimed: 0, paid: 0 }]);
    expect((await api("POST", `/api/admin/draws/${draw.id}/draw`, { jar: admin })).status).toBe(409);

    const proof = await (await api("GET", `/api/draws/${draw.id}/proof`)).json();
    const seed = (await ctx.db.selectFrom("draws").select("seed").where("id", "=", draw.id).executeTakeFirstOrThrow()).seed;
    expect(proof.seed).toBe(seed);
    expect(proof.entries).toEqual(emails.map((email, i) => ({ n: i + 1, emailHash: emailHashOf(draw.id, email), size: "" })));
    const expected = runDraw({ seedHex: seed, commitment: draw.commitment, beacon: "round-1", entries: proof.entries, units: { "": 2 } });
    expect(proof).toMatchObject({ beacon: "round-1", order: expected.order, winners: expected.winners });
    expect(verifyProof(proof)).toEqual({ ok: true, problems: [] });

    for (const [i, email] of emails.entries()) {
      const mails = await mailsTo(email);
      const won = expected.winners.includes(i + 1);
      expect(mails.map((m) => m.tag)).toEqual(["draw-confirm", won ? "draw-won" : "draw-not-picked"]);
      if (won) expect(claimTokenOf(mails[1]!.htmlBody)).toBeTruthy();
    }
    expect((await mailsTo("lazy@example.com")).map((m) => m.tag)).toEqual(["draw-confirm"]);

    const csv = await api("GET", `/api/admin/draws/${draw.id}/entries.csv`, { jar: admin });
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await csv.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines.slice(0, 4)).toEqual([
      `proof,commitment,${draw.commitment}`,
      `proof,seed,${seed}`,
      "proof,beacon,round-1",
      `proof,chain,${proof.chain}`,
    ]);
    expect(lines[6]).toMatch(new RegExp(`^1,${emailHashOf(draw.id, "a1@example.com")},,a1@example.com,`));
    expect((await api("GET", `/api/admin/draws/${draw.id}/entries.csv`)).status).toBe(401);
  });

  it("is drawn by the sweeper's leader at the close", async () => {
    const { draw } = await newDraw();
    ctx.clock.set(OPEN);
    await enterAndConfirm(draw.id, "sw@example.com");
    ctx.clock.set(AFTER);
    expect(await sweep(ctx, "draw-test-sweeper")).toBe(true);
    expect((await (await api("GET", `/api/draws/${draw.id}`)).json()).state).toBe("drawn");
    expect((await mailsTo("sw@example.com")).map((m) => m.tag)).toEqual(["draw-confirm", "draw-won"]);
  });

  it("is drawn once when two processes draw at the same moment", async () => {
    const { draw } = await newDraw({ inventory: 1 });
    ctx.clock.set(OPEN);
    for (const email of ["r1@example.com", "r2@example.com", "r3@example.com"]) await enterAndConfirm(draw.id, email);
    // The drawers run on the real clock, long after this draw's close.
    const startAt = Date.now() + 2_500;
    const results = await Promise.all([drawer(draw.id, startAt), drawer(draw.id, startAt)]);
    expect(results.map((r) => r.message)).toEqual([undefined, undefined]);
    expect(results.filter((r) => r.drew)).toHaveLength(1);
    const tags = await ctx.db
      .selectFrom("mailMessages")
      .select("tag")
      .where("toAddress", "in", ["r1@example.com", "r2@example.com", "r3@example.com"])
      .where("tag", "in", ["draw-won", "draw-not-picked"])
      .execute();
    expect(tags.map((t) => t.tag).sort()).toEqual(["draw-not-picked", "draw-not-picked", "draw-won"]);
    const winners = await ctx.db
      .selectFrom("drawEntries")
      .select("id")
      .where("drawId", "=", draw.id)
      .where("wonAt", "is not", null)
      .execute();
    expect(winners).toHaveLength(1);
  }, 60_000);
});

describe("buying", () => {
  async function drawnWithOneUnit(emails: string[]) {
    const { productId, draw } = await newDraw({ inventory: 1, claimMinutes: 60, name: "Drawn Parka" });
    ctx.clock.set(OPEN);
    for (const email of emails) await enterAndConfirm(draw.id, email);
    ctx.clock.set(AFTER);
    await drawNow(ctx, draw.id, "");
    const entries = await ctx.db
      .selectFrom("drawEntries")
      .select(["id", "email", "place", "wonAt"])
      .where("drawId", "=", draw.id)
      .orderBy("place")
      .execute();
    return { productId, draw, entries };
  }

  it("lets only the winner's browser buy the one unit; a non-winner and a second browser cannot", async () => {
    const { productId, draw, entries } = await drawnWithOneUnit(["w1@example.com", "w2@example.com"]);
    const [winner, loser] = entries;
    const claimToken = claimTokenOf((await mailsTo(winner!.email)).find((m) => m.tag === "draw-won")!.htmlBody)!;

    // The non-winner: no link, and the bag refuses the product.
    const loserJar = new CookieJar();
    const refused = await api("POST", "/api/cart", { body: { productId }, jar: loserJar });
    expect(await refused.json()).toEqual({ message: "Drawn Parka is sold by draw.", errors: {} });
    // Even a line slipped into their bag is not sold at Process Order.
    const loserBag = await bagOf(loserJar);
    await ctx.db
      .insertInto("cartItems")
      .values({ sessionId: loserBag, productId, quantity: 1, createdAt: AFTER, updatedAt: AFTER })
      .execute();
    const stolen = await api("POST", "/api/process-order", {
      jar: loserJar,
      body: { customerInfo: { ...customerInfo, email: loser!.email }, shippingMethod: "usps-ground_saver" },
    });
    expect(stolen.status).toBe(409);
    expect((await stolen.json()).message).toBe("Only a winner of the draw can buy Drawn Parka.");
    // A forged link to buy is nothing; the loser's confirm token is no link to buy.
    expect((await drawClaimLanding(ctx, draw.id, drawToken("wrong-secret", "claim", winner!.id), null)).kind).toBe("refused");

    const jar = new CookieJar();
    const bagId = await bagOf(jar);
    expect(await drawClaimLanding(ctx, draw.id, claimToken, bagId)).toMatchObject({ kind: "ready", productName: "Drawn Parka" });
    await claimDrawUnit(ctx, draw.id, claimToken, bagId);
    // Another browser with the same link: refused.
    const thief = new CookieJar();
    await expect(claimDrawUnit(ctx, draw.id, claimToken, await bagOf(thief))).rejects.toThrow(
      "This link to buy has already been opened in another browser.",
    );
    // One unit only.
    expect((await api("POST", `/api/cart/${productId}/increment`, { jar })).status).not.toBe(200);

    const processed = await api("POST", "/api/process-order", { jar, body: { customerInfo, shippingMethod: "usps-ground_saver" } });
    expect(processed.status).toBe(201);
    const { clientSecret } = await processed.json();
    const paid = await api("POST", "/api/local-payments/confirm", { body: { clientSecret, cardNumber: "4242 4242 4242 4242" } });
    expect((await paid.json()).status).toBe("paid");
    await passDownLapsedClaims(ctx);
    const detail = await (await api("GET", `/api/admin/draws/${draw.id}`, { jar: admin })).json();
    expect(detail.perSize[0]).toMatchObject({ winners: 1, claimed: 1, paid: 1 });
    expect(await drawClaimLanding(ctx, draw.id, claimToken, bagId)).toEqual({ kind: "refused", message: "This unit has been bought." });
  });

  it("passes an unclaimed hold to the next entrant of that size, who can then buy", async () => {
    const { draw, entries } = await drawnWithOneUnit(["l1@example.com", "l2@example.com", "l3@example.com"]);
    const [first, second, third] = entries;
    expect(first!.wonAt).not.toBeNull();
    const firstToken = claimTokenOf((await mailsTo(first!.email)).find((m) => m.tag === "draw-won")!.htmlBody)!;

    // Within the hour: nothing passes.
    ctx.clock.set("2026-06-01T14:30:00.000Z");
    await passDownLapsedClaims(ctx);
    expect((await mailsTo(second!.email)).map((m) => m.tag)).toEqual(["draw-confirm", "draw-not-picked"]);
    ctx.clock.set("2026-06-01T15:00:02.000Z");
    expect(await passDownLapsedClaims(ctx)).toBeGreaterThanOrEqual(1);
    expect(await drawClaimLanding(ctx, draw.id, firstToken, null)).toEqual({
      kind: "refused",
      message: "The time to buy with this link has run out.",
    });
    const secondMails = await mailsTo(second!.email);
    expect(secondMails.map((m) => m.tag)).toEqual(["draw-confirm", "draw-not-picked", "draw-won"]);
    expect((await mailsTo(third!.email)).map((m) => m.tag)).toEqual(["draw-confirm", "draw-not-picked"]);

    const jar = new CookieJar();
    const bagId = await bagOf(jar);
    await claimDrawUnit(ctx, draw.id, claimTokenOf(secondMails[2]!.htmlBody)!, bagId);
    const processed = await api("POST", "/api/process-order", {
      jar,
      body: { customerInfo: { ...customerInfo, email: second!.email }, shippingMethod: "usps-ground_saver" },
    });
    expect(processed.status).toBe(201);
    const detail = await (await api("GET", `/api/admin/draws/${draw.id}`, { jar: admin })).json();
    expect(detail.waitlistReached).toEqual({ "": 2 });
    // The proof's winners stay those of the draw itself.
    const proof = await (await api("GET", `/api/draws/${draw.id}/proof`)).json();
    expect(proof.winners).toEqual([proof.order[0]]);
    expect(verifyProof(proof).ok).toBe(true);
  });
});

describe("{{draw_link}} in a campaign", () => {
  it("gives every subscriber the page of the draw to come", async () => {
    const { draw } = await newDraw();
    await ctx.db.insertInto("subscribers").values({ email: "fan-of-draws@example.com", subscribedAt: NOW }).execute();
    const adminId = (await ctx.db.selectFrom("users").select("id").where("username", "=", "boss").executeTakeFirstOrThrow()).id;
    await sendCampaign(ctx, { subject: "Enter the draw", htmlContent: '<p><a href="{{draw_link}}">Enter</a></p>' }, adminId, {
      origin: "https://shop.example",
    });
    const [mail] = await ctx.db.selectFrom("mailMessages").select("htmlBody").where("toAddress", "=", "fan-of-draws@example.com").execute();
    expect(mail!.htmlBody).toContain(`href="https://shop.example/draws/${draw.id}"`);
  });
});

// Issue 26 (decision 0047): the admin Draws tab's live counts per size and one draw's page of
// winners and their claims, as the page loaders give them (the same counts as the REST detail):
// admins only, confirmed entries per size with units and totals, winners in drawn order with the
// full e-mail and where each claim stands, and how far down each size's drawn order the units went.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { useAppContextForTests } from "#server/boot";
import { WINNER_STATE_LABELS, winnerStateOf, type AdminDrawsView, type AdminDrawView } from "#server/contracts/admin-draws";
import { adminDrawLoader, adminDrawsLoader } from "#server/http/doors/admin-draws-door";
import { cartSessionIdOf } from "#server/http/cart-session";
import { ensureAdmin } from "#server/services/accounts/users";
import { claimDrawUnit } from "#server/services/drop/draw-claims";
import { confirmDrawEntry, resetDrawEntryLimits } from "#server/services/drop/draw-entries";
import { drawNow, passDownLapsedClaims } from "#server/services/drop/draw-run";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";
import { addProduct, runRoute } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();
const NOW = "2026-06-01T12:00:00.000Z";
const OPEN = "2026-06-01T13:00:00.000Z";
const CLOSE = "2026-06-01T14:00:00.000Z";
const AFTER = "2026-06-01T14:00:01.000Z";

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "detail-boss", password: "detail-boss-password", email: "detail-boss@example.com" });
  await api("POST", "/api/login", { body: { username: "detail-boss", password: "detail-boss-password" }, jar: admin });
});
beforeEach(async () => {
  ctx.clock.set(NOW);
  await resetDrawEntryLimits(ctx);
});

const mailsTo = (email: string) =>
  ctx.db.selectFrom("mailMessages").select(["htmlBody", "tag"]).where("toAddress", "=", email).orderBy("id").execute();
const tokenOf = (kind: "confirm" | "claim", html: string) => new RegExp(`/draws/\\d+/${kind}/([^"]+)"`).exec(html)?.[1];

async function enter(drawId: number, email: string, size: string, confirm = true) {
  expect((await api("POST", `/api/draws/${drawId}/entries`, { body: { email, size } })).status).toBe(202);
  if (!confirm) return;
  const mail = (await mailsTo(email)).find((m) => m.tag === "draw-confirm")!;
  await confirmDrawEntry(ctx, drawId, tokenOf("confirm", mail.htmlBody)!);
}

async function sizedDraw(name: string, units: Record<string, number>) {
  const product = await api("POST", "/api/admin/products", {
    jar: admin,
    body: {
      name,
      description: "A piece sold by draw, in sizes.",
      price: 60,
      sizes: [
        { label: "S", inventory: 1 },
        { label: "M", inventory: 2 },
      ],
    },
  });
  const { id: productId } = (await product.json()) as { id: number };
  const made = await api("POST", "/api/admin/draws", {
    jar: admin,
    body: { productId, entriesOpenAt: OPEN, entriesCloseAt: CLOSE, claimMinutes: 60, units },
  });
  expect(made.status).toBe(201);
  return (await made.json()) as { id: number };
}

const list = () => runRoute<AdminDrawsView>(adminDrawsLoader, { path: "/admin/draws", jar: admin });
const detail = (id: number | string, jar: CookieJar = admin) =>
  runRoute<AdminDrawView>(adminDrawLoader, { path: `/admin/draws/${id}`, params: { id: String(id) }, jar });

describe("the admin Draws tab's counts per size", () => {
  it("lists confirmed and all entries and the units of each size, as the REST detail counts them", async () => {
    const draw = await sizedDraw("Counted Tee", { S: 1, M: 2 });
    ctx.clock.set(OPEN);
    await enter(draw.id, "s1@example.com", "S");
    await enter(draw.id, "s2@example.com", "S", false);
    await enter(draw.id, "m1@example.com", "M");
    await enter(draw.id, "m2@example.com", "M");

    const row = (await list()).data.draws.find((d) => d.id === draw.id)!;
    expect(row).toMatchObject({ state: "open", entries: 4, confirmed: 3 });
    expect(row.perSize).toEqual([
      { size: "S", units: 1, entries: 2, confirmed: 1, winners: 0, claimed: 0, paid: 0 },
      { size: "M", units: 2, entries: 2, confirmed: 2, winners: 0, claimed: 0, paid: 0 },
    ]);
    const rest = await (await api("GET", `/api/admin/draws/${draw.id}`, { jar: admin })).json();
    expect(row.perSize).toEqual(rest.perSize);

    // A new entry shows on the next load: what the page asks for every ten seconds.
    await enter(draw.id, "m3@example.com", "M");
    expect((await list()).data.draws.find((d) => d.id === draw.id)!.perSize[1]).toMatchObject({ size: "M", entries: 3, confirmed: 3 });
  });
});

describe("the admin Draws tab's refresh", () => {
  // The doors see the database through a wrapper that counts every statement they send.
  let statements = 0;
  const counting = {
    ...ctx,
    db: ctx.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements += 1;
        return args.result;
      },
    }),
  };
  beforeAll(() => useAppContextForTests(counting));
  afterAll(() => useAppContextForTests(ctx));
  const statementsOf = async (work: () => Promise<unknown>) => {
    statements = 0;
    await work();
    return statements;
  };

  /**
   * `count` new draws of S (1 unit) and M (2), then 1, 2 or 3 entries in each, in turn: an S
   * entry, an unconfirmed S entry, an M entry. Gives what the tab should show for each.
   */
  async function drawsWithEntries(name: string, count: number) {
    ctx.clock.set(NOW);
    const draws = [];
    for (let i = 0; i < count; i++) draws.push({ ...(await sizedDraw(`${name} ${i}`, { S: 1, M: 2 })), entries: (i % 3) + 1 });
    ctx.clock.set(OPEN);
    const emails = ["s", "unconfirmed-s", "m"];
    for (const draw of draws) {
      for (let k = 0; k < draw.entries; k++) await enter(draw.id, `${emails[k]}-${draw.id}@example.com`, k === 2 ? "M" : "S", k !== 1);
    }
    return draws.map(({ id, entries }) => {
      const m = entries === 3 ? 1 : 0;
      const zero = { winners: 0, claimed: 0, paid: 0 };
      return {
        id,
        entries,
        confirmed: 1 + m,
        perSize: [
          { size: "S", units: 1, entries: Math.min(entries, 2), confirmed: 1, ...zero },
          { size: "M", units: 2, entries: m, confirmed: m, ...zero },
        ],
      };
    });
  }

  it("refreshes eight draws with as many statements as two, each draw with its own counts", async () => {
    const draws = await drawsWithEntries("Refreshed Tee", 2);
    const few = await statementsOf(list);
    await resetDrawEntryLimits(ctx);
    draws.push(...(await drawsWithEntries("Refreshed More Tee", 6)));
    const many = await statementsOf(list);
    // The admin's session, the draws, their counts per size, the products a new draw may be for:
    // the same for any number of draws (it was one count more per draw).
    expect(many).toBe(few);
    expect(few).toBeLessThanOrEqual(5);

    const listed = (await list()).data.draws;
    const rest = (await (await api("GET", "/api/admin/draws", { jar: admin })).json()) as { draws: Record<string, unknown>[] };
    for (const draw of draws) {
      const row = listed.find((d) => d.id === draw.id)!;
      expect(row).toMatchObject({ state: "open", entries: draw.entries, confirmed: draw.confirmed, perSize: draw.perSize });
      // The REST list and detail count the same, the list field for field without the sizes.
      const detail = (await (await api("GET", `/api/admin/draws/${draw.id}`, { jar: admin })).json()) as Record<string, unknown>;
      expect(detail).toMatchObject({ entries: draw.entries, confirmed: draw.confirmed, perSize: draw.perSize });
      const { perSize: _perSize, ...summary } = row;
      expect(rest.draws.find((d) => d.id === draw.id)).toStrictEqual(summary);
    }
  });
});

describe("one draw's page: winners and their claims", () => {
  it("is for admins only, and an unknown draw is not found", async () => {
    const draw = await sizedDraw("Guarded Draw Tee", { S: 1, M: 1 });
    expect((await runRoute(adminDrawLoader, { path: `/admin/draws/${draw.id}`, params: { id: String(draw.id) } })).status).toBe(302);
    expect((await detail(draw.id, new CookieJar())).status).toBe(302);
    expect((await detail(999_999)).status).toBe(404);
    expect((await detail("abc")).status).toBe(404);
  });

  it("shows no winners before the draw, then the winners in drawn order and where each claim stands", async () => {
    const draw = await sizedDraw("Claimed Tee", { S: 1, M: 1 });
    ctx.clock.set(OPEN);
    for (const email of ["a@example.com", "b@example.com"]) await enter(draw.id, email, "S");
    await enter(draw.id, "c@example.com", "M");
    const before = (await detail(draw.id)).data.draw;
    expect(before).toMatchObject({ state: "open", winners: [], waitlistReached: { S: 0, M: 0 } });

    ctx.clock.set(AFTER);
    expect(await drawNow(ctx, draw.id, "beacon-1")).toBe(true);
    const drawn = (await detail(draw.id)).data;
    expect(drawn.now).toBe(AFTER);
    const sWinner = drawn.draw.winners.find((w) => w.size === "S")!;
    const mWinner = drawn.draw.winners.find((w) => w.size === "M")!;
    expect(drawn.draw.winners.map((w) => w.place)).toEqual([...drawn.draw.winners.map((w) => w.place)].sort((a, b) => a - b));
    expect(["a@example.com", "b@example.com"]).toContain(sWinner.email);
    expect(mWinner.email).toBe("c@example.com");
    expect(drawn.draw.winners.map((w) => winnerStateOf(w, drawn.draw.winners, drawn.now))).toEqual(["emailed", "emailed"]);

    // The M winner takes their link; the S winner does not.
    const jar = new CookieJar();
    const other = await addProduct(ctx, { name: "Detail Sticker", inventory: 10 });
    expect((await api("POST", "/api/cart", { body: { productId: other }, jar })).status).toBe(201);
    await api("DELETE", `/api/cart/${other}`, { jar });
    const bagId = (await cartSessionIdOf(ctx, new Request("http://localhost/", { headers: { Cookie: jar.header() } })))!;
    await claimDrawUnit(ctx, draw.id, tokenOf("claim", (await mailsTo("c@example.com")).at(-1)!.htmlBody)!, bagId);
    const claimed = (await detail(draw.id)).data;
    expect(
      winnerStateOf(
        claimed.draw.winners.find((w) => w.size === "M")!,
        claimed.draw.winners,
        claimed.now,
      ),
    ).toBe("claimed");
    // Neither pays: the S unit passes to the next S entrant; M has nobody after its winner.
    ctx.clock.set("2026-06-01T15:00:02.000Z");
    expect(await passDownLapsedClaims(ctx)).toBe(1);

    const later = (await detail(draw.id)).data;
    const next = sWinner.email === "a@example.com" ? "b@example.com" : "a@example.com";
    const states = later.draw.winners.map((w) => [w.email, w.size, WINNER_STATE_LABELS[winnerStateOf(w, later.draw.winners, later.now)]]);
    expect(states).toEqual(
      expect.arrayContaining([
        [sWinner.email, "S", "Expired, passed on"],
        ["c@example.com", "M", "Expired"],
        [next, "S", "Claim e-mailed"],
      ]),
    );
    expect(states).toHaveLength(3);
    expect(later.draw.perSize).toEqual([
      { size: "S", units: 1, entries: 2, confirmed: 2, winners: 2, claimed: 0, paid: 0 },
      { size: "M", units: 1, entries: 1, confirmed: 1, winners: 1, claimed: 1, paid: 0 },
    ]);
    const places = Object.fromEntries(later.draw.winners.map((w) => [w.email, w.place]));
    expect(later.draw.waitlistReached).toEqual({
      S: Math.max(places["a@example.com"]!, places["b@example.com"]!),
      M: places["c@example.com"],
    });
  });
});

describe("the entries CSV", () => {
  it("gives each entry's number, hash, size, chain_n, place and whether it won, under the proof's numbers", async () => {
    const draw = await sizedDraw("Exported Tee", { S: 1, M: 0 });
    ctx.clock.set(OPEN);
    await enter(draw.id, "x1@example.com", "S");
    await enter(draw.id, "x2@example.com", "S", false);
    const csvOf = async () =>
      (await (await api("GET", `/api/admin/draws/${draw.id}/entries.csv`, { jar: admin })).text()).replace(/^\uFEFF/, "").split("\r\n");
    const entry = await ctx.db.selectFrom("drawEntries").selectAll().where("email", "=", "x1@example.com").executeTakeFirstOrThrow();
    const header = "n,emailHash,size,email,name,enteredAt,confirmedAt,place,wonAt,claimedAt,paidAt,lapsedAt,chainN,won";
    const open = await csvOf();
    expect(open[1]).toBe("proof,seed,(published after the draw)");
    expect(open[5]).toBe(header);
    expect(open[6]).toBe(`1,${entry.emailHash},S,x1@example.com,,${entry.createdAt},${entry.confirmedAt},,,,,,${entry.chain},`);
    expect(open[7]).toMatch(/^,[0-9a-f]{64},S,x2@example.com,,[^,]+,,,,,,,,$/);

    ctx.clock.set(AFTER);
    expect(await drawNow(ctx, draw.id, "")).toBe(true);
    const drawn = await csvOf();
    expect(drawn[5]).toBe(header);
    expect(drawn[6]).toBe(
      `1,${entry.emailHash},S,x1@example.com,,${entry.createdAt},${entry.confirmedAt},1,${AFTER},,,,${entry.chain},yes`,
    );
  });

  it("is refused to a visitor (401) and a shopper (403)", async () => {
    const draw = await sizedDraw("Hidden Export Tee", { S: 1, M: 1 });
    expect((await api("GET", `/api/admin/draws/${draw.id}/entries.csv`)).status).toBe(401);
    const shopper = new CookieJar();
    await api("POST", "/api/register", {
      body: { username: "csv-shopper", password: "shopper1", email: "csv-shopper@example.com" },
      jar: shopper,
    });
    const refused = await api("GET", `/api/admin/draws/${draw.id}/entries.csv`, { jar: shopper });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: "Admin access is required." });
  });
});

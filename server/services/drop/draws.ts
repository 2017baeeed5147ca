import { sql } from "kysely";
import {
  DRAW_MESSAGES,
  DRAW_TAG,
  type AdminDrawDetail,
  type AdminDrawListItem,
  type AdminDrawSizeCount,
  type AdminDrawSummary,
  type DrawCreateInput,
  type DrawState,
  type PublicDraw,
} from "#server/contracts/draws";
import type { DrawableProduct } from "#server/contracts/admin-draws";
import type { AppContext } from "#server/context";
import { compiledOnce } from "#db/compiled-query";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { lockProductRows } from "#server/services/catalog/product-stock";
import { escapeHtml } from "#server/services/security/sanitize";
import { commitmentOf, newSeedHex, type DrawProof } from "./draw-math";
import { drawSizesOf, drawSizeStockOf } from "./draw-sizes";

/**
 * A product sold by a verifiable draw (issue 26, decision 0047): the admin's draws, their public
 * face and, after the draw, their proof. Entering is in draw-entries.ts, drawing in draw-run.ts,
 * buying in draw-claims.ts, the arithmetic in draw-math.ts.
 */

export type DrawRow = {
  id: number;
  productId: number;
  productName: string;
  entriesOpenAt: string;
  entriesCloseAt: string;
  claimMinutes: number;
  units: string;
  commitment: string;
  chain: string;
  entryCount: number;
  beacon: string | null;
  drawnAt: string | null;
  siteOrigin: string;
};

const DRAW_COLUMNS = [
  "d.id",
  "d.productId",
  "p.name as productName",
  "d.entriesOpenAt",
  "d.entriesCloseAt",
  "d.claimMinutes",
  "d.units",
  "d.commitment",
  "d.chain",
  "d.entryCount",
  "d.beacon",
  "d.drawnAt",
  "d.siteOrigin",
] as const;

export const drawQuery = (ctx: AppContext) =>
  ctx.db.selectFrom("draws as d").innerJoin("products as p", "p.id", "d.productId").select(DRAW_COLUMNS);

export async function drawRow(ctx: AppContext, id: number): Promise<DrawRow> {
  const row = await drawQuery(ctx).where("d.id", "=", id).executeTakeFirst();
  if (!row) throw new NotFound(DRAW_MESSAGES.notFound);
  return row;
}

export function stateOf(draw: Pick<DrawRow, "entriesOpenAt" | "entriesCloseAt" | "drawnAt">, now: Date): DrawState {
  if (draw.drawnAt) return "drawn";
  const at = now.toISOString();
  if (at < draw.entriesOpenAt) return "upcoming";
  return at < draw.entriesCloseAt ? "open" : "closed";
}

export const unitsOf = (draw: Pick<DrawRow, "units">): Record<string, number> => JSON.parse(draw.units) as Record<string, number>;

/** The draw set for a product (one at a time), or undefined: while one is set, nobody bags it. */
export async function drawForProduct(ctx: AppContext, productId: number): Promise<DrawRow | undefined> {
  return drawQuery(ctx).where("d.productId", "=", productId).orderBy("d.id", "desc").executeTakeFirst();
}

// Asked by every bag add: kept compiled.
const drawOfProduct = compiledOnce((db, $: { productId: number }) =>
  db.selectFrom("draws as d").innerJoin("products as p", "p.id", "d.productId").select("p.name").where("d.productId", "=", $.productId),
);

/** Refuses to bag a product sold by draw: 409 "{product name} is sold by draw." */
export async function refuseIfSoldByDraw(ctx: AppContext, productId: number): Promise<void> {
  const draw = await drawOfProduct.first(ctx.db, { productId });
  if (draw) throw new Conflict(DRAW_MESSAGES.soldByDraw(draw.name));
}

const unitsInvalid = (message: string = DRAW_MESSAGES.units) => new Invalid(message, { units: [message] });

/**
 * The units to give per size: as the admin said, or the product's stock (each size's stock for a
 * product with sizes). No size may give more units than it has in stock.
 */
function unitsFor(input: DrawCreateInput, sizes: { label: string; inventory: number }[], inventory: number): Record<string, number> {
  const given = input.units;
  if (sizes.length === 0) {
    let units: number;
    if (given === undefined) units = inventory;
    else if (typeof given === "number") units = given;
    else if (Object.keys(given).length === 1 && given[""] !== undefined) units = given[""];
    else throw unitsInvalid();
    if (units > inventory) throw unitsInvalid(`Units must not exceed the product's stock (${inventory}).`);
    return { "": units };
  }
  if (given === undefined) return Object.fromEntries(sizes.map((size) => [size.label, size.inventory]));
  if (typeof given === "number") throw unitsInvalid();
  const units: Record<string, number> = Object.fromEntries(sizes.map((size) => [size.label, 0]));
  for (const [key, count] of Object.entries(given)) {
    // Named as the bag names sizes: without regard to case.
    const size = sizes.find((s) => s.label.toLowerCase() === key.toLowerCase());
    if (!size) throw unitsInvalid();
    if (count > size.inventory) throw unitsInvalid(`Units for size ${size.label} must not exceed its stock (${size.inventory}).`);
    units[size.label] = count;
  }
  return units;
}

/** POST /api/admin/draws: a new draw, its seed drawn now and its commitment public from here on. */
export async function createDraw(ctx: AppContext, input: DrawCreateInput, origin: string): Promise<AdminDrawSummary> {
  const product = await ctx.db.selectFrom("products").select(["id", "inventory"]).where("id", "=", input.productId).executeTakeFirst();
  if (!product) throw new NotFound(DRAW_MESSAGES.productNotFound, { productId: [DRAW_MESSAGES.productNotFound] });
  const now = ctx.clock.now().toISOString();
  if (input.entriesOpenAt < now) throw new Invalid(DRAW_MESSAGES.openInFuture, { entriesOpenAt: [DRAW_MESSAGES.openInFuture] });
  const units = unitsFor(input, await drawSizeStockOf(ctx, product.id), product.inventory);
  const seed = newSeedHex();
  const commitment = commitmentOf(seed);
  const id = await ctx.db.transaction().execute(async (trx) => {
    // The product's row first: on PostgreSQL two admins' creates (or a double submit) otherwise
    // both found no draw and both made one; locked, the second finds the first.
    await lockProductRows(trx, [product.id]);
    const existing = await trx.selectFrom("draws").select("id").where("productId", "=", product.id).executeTakeFirst();
    if (existing) throw new Conflict(DRAW_MESSAGES.alreadySet, { productId: [DRAW_MESSAGES.alreadySet] });
    const row = await trx
      .insertInto("draws")
      .values({
        productId: product.id,
        entriesOpenAt: input.entriesOpenAt,
        entriesCloseAt: input.entriesCloseAt,
        claimMinutes: input.claimMinutes,
        units: JSON.stringify(units),
        seed,
        commitment,
        chain: commitment,
        siteOrigin: origin,
        createdAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // The product page shows the draw instead of Add To Bag: its cached page is stale now.
    await trx.updateTable("products").set({ updatedAt: now }).where("id", "=", product.id).execute();
    return row.id;
  });
  const [draw] = await withCounts(ctx, [await drawRow(ctx, id)]);
  return summaryOnly(draw!);
}

/**
 * The admin's view of a draw. Every entry is counted under its size ('' without sizes), so the
 * per-size counts already hold the draw's entries: no query of its own.
 */
function summaryOf(draw: DrawRow, perSize: AdminDrawSizeCount[], now: Date): AdminDrawSummary {
  const entries = perSize.reduce((sum, size) => sum + size.entries, 0);
  return {
    id: draw.id,
    product: { id: draw.productId, name: draw.productName },
    state: stateOf(draw, now),
    entriesOpenAt: draw.entriesOpenAt,
    entriesCloseAt: draw.entriesCloseAt,
    claimMinutes: draw.claimMinutes,
    units: unitsOf(draw),
    commitment: draw.commitment,
    chain: draw.chain,
    entries,
    confirmed: draw.entryCount,
    drawnAt: draw.drawnAt,
    beacon: draw.beacon,
  };
}

/** The admin's list of draws: newest first, at most 200. */
const listedRows = (ctx: AppContext) => drawQuery(ctx).orderBy("d.id", "desc").limit(200).execute();

/** GET /api/admin/draws: newest first (at most 200). */
export async function listDraws(ctx: AppContext): Promise<{ draws: AdminDrawSummary[] }> {
  const draws = await withCounts(ctx, await listedRows(ctx));
  return { draws: draws.map(summaryOnly) };
}

type SizeCounts = Pick<AdminDrawDetail, "perSize" | "waitlistReached">;
type CountedDraw = AdminDrawListItem & SizeCounts;

/**
 * The draws with their counts: one grouped query for all of them, whatever their number (the
 * Draws tab asks for up to 200 every ten seconds while one is open).
 */
async function withCounts(ctx: AppContext, rows: DrawRow[]): Promise<CountedDraw[]> {
  const counts = await sizeCountsOf(
    ctx,
    rows.map((row) => ({ id: row.id, units: unitsOf(row) })),
  );
  const now = ctx.clock.now();
  return rows.map((row) => {
    const { perSize, waitlistReached } = counts.get(row.id)!;
    return { ...summaryOf(row, perSize, now), perSize, waitlistReached };
  });
}

/** The REST summary's fields, field for field: the counts per size are the detail's. */
const summaryOnly = ({ perSize: _perSize, waitlistReached: _reached, ...summary }: CountedDraw): AdminDrawSummary => summary;

/**
 * Per draw and size: units, entries, confirmed, winners, claimed, paid, and the furthest place in
 * the drawn order the units have reached. One grouped query for any number of draws.
 */
async function sizeCountsOf(ctx: AppContext, draws: Pick<AdminDrawSummary, "id" | "units">[]): Promise<Map<number, SizeCounts>> {
  const result = new Map<number, SizeCounts>();
  if (draws.length === 0) return result;
  const counts = await ctx.db
    .selectFrom("drawEntries")
    .select([
      "drawId",
      "size",
      (eb) => eb.fn.countAll<number>().as("entries"),
      (eb) => eb.fn.count<number>("n").as("confirmed"),
      (eb) => eb.fn.count<number>("wonAt").as("winners"),
      (eb) => eb.fn.count<number>("claimedAt").as("claimed"),
      (eb) => eb.fn.count<number>("paidAt").as("paid"),
      (eb) => eb.fn.max<number | null>(sql`CASE WHEN won_at IS NOT NULL THEN place END`).as("reached"),
    ])
    .where(
      "drawId",
      "in",
      draws.map((d) => d.id),
    )
    .groupBy(["drawId", "size"])
    .execute();
  for (const draw of draws) {
    const bySize = new Map(counts.filter((row) => row.drawId === draw.id).map((row) => [row.size, row]));
    const sizes = [...new Set([...Object.keys(draw.units), ...bySize.keys()])];
    result.set(draw.id, {
      perSize: sizes.map((size) => {
        const row = bySize.get(size);
        return {
          size,
          units: draw.units[size] ?? 0,
          entries: Number(row?.entries ?? 0),
          confirmed: Number(row?.confirmed ?? 0),
          winners: Number(row?.winners ?? 0),
          claimed: Number(row?.claimed ?? 0),
          paid: Number(row?.paid ?? 0),
        };
      }),
      waitlistReached: Object.fromEntries(sizes.map((size) => [size, Number(bySize.get(size)?.reached ?? 0)])),
    });
  }
  return result;
}

/**
 * The admin Draws tab: the list with each draw's counts per size (the same counts as one draw's
 * detail), newest first (at most 200). Two statements for the whole list.
 */
export async function listDrawsWithSizes(ctx: AppContext): Promise<{ draws: AdminDrawListItem[] }> {
  const draws = await withCounts(ctx, await listedRows(ctx));
  return { draws: draws.map(({ waitlistReached: _reached, ...draw }) => draw) };
}

/** GET /api/admin/draws/{id}: counts per size, the winners and their claims, how far down each size went. */
export async function getDraw(ctx: AppContext, id: number): Promise<AdminDrawDetail> {
  const [counted] = await withCounts(ctx, [await drawRow(ctx, id)]);
  const { waitlistReached, ...listed } = counted!;
  const winners = await ctx.db
    .selectFrom("drawEntries")
    .select(["n", "email", "size", "place", "wonAt", "claimExpiresAt", "claimedAt", "paidAt", "lapsedAt"])
    .where("drawId", "=", id)
    .where("wonAt", "is not", null)
    .orderBy("place")
    .execute();
  return {
    ...listed,
    winners: winners.map((w) => ({ ...w, n: w.n!, place: w.place!, wonAt: w.wonAt! })),
    waitlistReached,
  };
}

/** DELETE /api/admin/draws/{id}: only before entries open (nobody can have entered). */
export async function deleteDraw(ctx: AppContext, id: number): Promise<void> {
  const draw = await drawRow(ctx, id);
  const now = ctx.clock.now().toISOString();
  if (stateOf(draw, ctx.clock.now()) !== "upcoming") throw new Conflict(DRAW_MESSAGES.startedCannotDelete);
  const deleted = await ctx.db.deleteFrom("draws").where("id", "=", id).where("entriesOpenAt", ">", now).executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw new Conflict(DRAW_MESSAGES.startedCannotDelete);
  await ctx.db.updateTable("products").set({ updatedAt: now }).where("id", "=", draw.productId).execute();
}

/** GET /api/draws/{id}: what anyone may see, the commitment from the start. */
export async function publicDraw(ctx: AppContext, id: number): Promise<PublicDraw> {
  const draw = await drawRow(ctx, id);
  return toPublic(ctx, draw);
}

/**
 * The draw's own page (/draws/{id}): the draw, and its product's size guide, shown whenever the
 * product has one (the page is the draw panel alone, which places it: decision 0057).
 */
export async function drawPage(ctx: AppContext, id: number): Promise<{ draw: PublicDraw; sizeGuide: string | null }> {
  const draw = await drawRow(ctx, id);
  const product = await ctx.db.selectFrom("products").select("sizeGuide").where("id", "=", draw.productId).executeTakeFirst();
  return { draw: await toPublic(ctx, draw), sizeGuide: product?.sizeGuide ?? null };
}

export async function toPublic(ctx: AppContext, draw: DrawRow): Promise<PublicDraw> {
  return {
    id: draw.id,
    product: { id: draw.productId, name: draw.productName },
    state: stateOf(draw, ctx.clock.now()),
    entriesOpenAt: draw.entriesOpenAt,
    entriesCloseAt: draw.entriesCloseAt,
    commitment: draw.commitment,
    entryCount: draw.entryCount,
    chain: draw.chain,
    sizes: await drawSizesOf(ctx, draw),
  };
}

/** GET /api/draws/{id}/proof: everything needed to check the draw; 404 before it is made. */
export async function drawProof(ctx: AppContext, id: number): Promise<DrawProof> {
  const draw = await ctx.db.selectFrom("draws").selectAll().where("id", "=", id).executeTakeFirst();
  if (!draw) throw new NotFound(DRAW_MESSAGES.notFound);
  if (!draw.drawnAt) throw new NotFound(DRAW_MESSAGES.noProof);
  const entries = await ctx.db
    .selectFrom("drawEntries")
    .select(["n", "emailHash", "size", "place", "wonAt", "lapsedAt"])
    .where("drawId", "=", id)
    .where("n", "is not", null)
    .orderBy("n")
    .execute();
  const drawn = entries.filter((e) => e.place !== null).sort((a, b) => a.place! - b.place!);
  return {
    commitment: draw.commitment,
    seed: draw.seed,
    beacon: draw.beacon ?? "",
    chain: draw.chain,
    entries: entries.map((e) => ({ n: e.n!, emailHash: e.emailHash, size: e.size })),
    order: drawn.map((e) => e.n!),
    winners: drawn.filter((e) => e.wonAt !== null && e.wonAt === draw.drawnAt).map((e) => e.n!),
    units: JSON.parse(draw.units) as Record<string, number>,
  };
}

/** The product page's draw panel: the draw set for the product, or null (then Add To Bag as usual). */
export async function drawPanelFor(ctx: AppContext, productId: number): Promise<PublicDraw | null> {
  const draw = await drawForProduct(ctx, productId);
  return draw ? toPublic(ctx, draw) : null;
}

/**
 * `{{draw_link}}` in a campaign: the page of the draw still to be drawn that closes first (the
 * store's page when there is none), the same link for every recipient (escaped for HTML).
 */
export async function withDrawLink<C extends { htmlContent: string }>(ctx: AppContext, campaign: C, origin: string): Promise<C> {
  if (!campaign.htmlContent.includes(DRAW_TAG)) return campaign;
  const next = await ctx.db
    .selectFrom("draws")
    .select("id")
    .where("drawnAt", "is", null)
    .where("entriesCloseAt", ">", ctx.clock.now().toISOString())
    .orderBy("entriesCloseAt")
    .orderBy("id", "desc")
    .executeTakeFirst();
  const url = next ? `${origin}/draws/${next.id}` : `${origin}/store`;
  return { ...campaign, htmlContent: campaign.htmlContent.replaceAll(DRAW_TAG, escapeHtml(url)) };
}

/** The admin Draws tab's product choice: products without a draw, by name, each size's stock (at most 500). */
export async function drawableProducts(ctx: AppContext): Promise<DrawableProduct[]> {
  const products = await ctx.db
    .selectFrom("products")
    .select(["id", "name", "inventory"])
    .where((eb) => eb.not(eb.exists(eb.selectFrom("draws").select("draws.id").whereRef("draws.productId", "=", "products.id"))))
    .orderBy("name")
    .orderBy("id")
    .limit(500)
    .execute();
  if (products.length === 0) return [];
  const sizes = await ctx.db
    .selectFrom("productSizes")
    .select(["productId", "label", "inventory"])
    .where(
      "productId",
      "in",
      products.map((p) => p.id),
    )
    .orderBy("productId")
    .orderBy("position")
    .execute();
  return products.map((p) => ({
    ...p,
    sizes: sizes.filter((s) => s.productId === p.id).map(({ label, inventory }) => ({ label, inventory })),
  }));
}

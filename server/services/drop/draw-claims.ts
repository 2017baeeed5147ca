import type { Transaction } from "kysely";
import type { DB } from "#db/schema";
import { DRAW_MESSAGES, type DrawClaimView } from "#server/contracts/draws";
import type { AppContext } from "#server/context";
import { Conflict } from "#server/errors";
import { resolveChoice, stockOfOne } from "#server/services/catalog/product-stock";
import { entryIdOf } from "./draw-links";

/**
 * A winner's link to buy (issue 26, decision 0047): single-use in the sense early-access links
 * are, bound to the first browser that takes it (its bag: the signed cart cookie's id). The unit
 * is the winner's until `claim_expires_at`; their bag then holds exactly that one unit, and
 * Process Order sells a product sold by draw only to a bag bound to a live win.
 */

type Checked = DrawClaimView & { entryId?: number };

async function check(ctx: AppContext, drawId: number, token: string, bagId: string | null): Promise<Checked> {
  const id = entryIdOf(ctx.config, "claim", token);
  const entry = id
    ? await ctx.db
        .selectFrom("drawEntries as e")
        .innerJoin("draws as d", "d.id", "e.drawId")
        .innerJoin("products as p", "p.id", "d.productId")
        .select(["e.id", "e.size", "e.wonAt", "e.lapsedAt", "e.paidAt", "e.claimExpiresAt", "e.bagId", "p.id as productId", "p.name"])
        .where("e.id", "=", id)
        .where("e.drawId", "=", drawId)
        .executeTakeFirst()
    : undefined;
  if (!entry?.wonAt) return { kind: "refused", message: DRAW_MESSAGES.claimInvalid };
  if (entry.paidAt) return { kind: "refused", message: DRAW_MESSAGES.claimPaid };
  if (entry.lapsedAt || entry.claimExpiresAt! <= ctx.clock.now().toISOString()) {
    return { kind: "refused", message: DRAW_MESSAGES.claimExpired };
  }
  if (entry.bagId !== null && entry.bagId !== bagId) return { kind: "refused", message: DRAW_MESSAGES.claimUsed };
  return {
    kind: "ready",
    drawId,
    productId: entry.productId,
    productName: entry.name,
    size: entry.size,
    claimExpiresAt: entry.claimExpiresAt!,
    entryId: entry.id,
  };
}

/** The claim page (GET): what the link is worth for this browser. Writes nothing. */
export async function drawClaimLanding(ctx: AppContext, drawId: number, token: string, bagId: string | null): Promise<DrawClaimView> {
  const { entryId: _id, ...view } = await check(ctx, drawId, token, bagId);
  return view;
}

/**
 * Takes the link for this browser's bag (one conditional update: of two browsers at once exactly
 * one wins) and puts the one unit in the bag. Again from the same browser: the same, unchanged.
 */
export async function claimDrawUnit(ctx: AppContext, drawId: number, token: string, bagId: string): Promise<{ productId: number }> {
  const checked = await check(ctx, drawId, token, bagId);
  if (checked.kind !== "ready") throw new Conflict(checked.message);
  const now = ctx.clock.now().toISOString();
  const color = await colorFor(ctx, checked.productId, checked.size);
  await ctx.db.transaction().execute(async (trx) => {
    const bound = await trx
      .updateTable("drawEntries")
      .set({ bagId, claimedAt: now })
      .where("id", "=", checked.entryId!)
      .where((eb) => eb.or([eb("bagId", "is", null), eb("bagId", "=", bagId)]))
      .where("lapsedAt", "is", null)
      .where("paidAt", "is", null)
      .executeTakeFirst();
    if (Number(bound.numUpdatedRows) !== 1) throw new Conflict(DRAW_MESSAGES.claimUsed);
    await trx
      .insertInto("cartItems")
      // One bag line per product, size and colour (issue 23): the won size, whose shelf checkout takes it from.
      .values({
        sessionId: bagId,
        productId: checked.productId,
        size: checked.size,
        color,
        quantity: 1,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict((oc) => oc.columns(["sessionId", "productId", "size", "color"]).doUpdateSet({ quantity: 1, updatedAt: now }))
      .execute();
  });
  return { productId: checked.productId };
}

/**
 * A draw is won per size; a product that also comes in colours gets the colour the product page
 * would preselect (the first in stock in that size), so the unit comes off a shelf that has it.
 */
async function colorFor(ctx: AppContext, productId: number, size: string): Promise<string> {
  const product = await ctx.db
    .selectFrom("products")
    .select(["id", "name", "inventory", "availableColors", "stockPerColor"])
    .where("id", "=", productId)
    .executeTakeFirst();
  if (!product) return "";
  try {
    return resolveChoice(product, await stockOfOne(ctx.db, product), { size }).color;
  } catch {
    // The size is gone from the product since the draw: no colour to pick, checkout says why.
    return "";
  }
}

/**
 * At Process Order: every product of the bag that is sold by draw must be one unit of this bag's
 * live win. Answers the winning entries, for `linkDrawOrder`; refuses anyone else with 409.
 */
export async function drawWinsForBag(
  ctx: AppContext,
  sessionId: string | null,
  lines: { productId: number; name: string; quantity: number }[],
): Promise<number[]> {
  if (lines.length === 0) return [];
  const drawn = await ctx.db
    .selectFrom("draws")
    .select(["id", "productId"])
    .where(
      "productId",
      "in",
      lines.map((l) => l.productId),
    )
    .execute();
  const entryIds: number[] = [];
  for (const draw of drawn) {
    const line = lines.find((l) => l.productId === draw.productId)!;
    const win = sessionId
      ? await ctx.db
          .selectFrom("drawEntries")
          .select("id")
          .where("drawId", "=", draw.id)
          .where("bagId", "=", sessionId)
          .where("wonAt", "is not", null)
          .where("lapsedAt", "is", null)
          .where("paidAt", "is", null)
          .where("claimExpiresAt", ">", ctx.clock.now().toISOString())
          .executeTakeFirst()
      : undefined;
    if (!win || line.quantity !== 1) throw new Conflict(DRAW_MESSAGES.notAWinner(line.name));
    entryIds.push(win.id);
  }
  return entryIds;
}

/** In Process Order's transaction: the winning entries point at the order that buys their unit. */
export async function linkDrawOrder(trx: Transaction<DB>, entryIds: number[], orderId: number): Promise<void> {
  if (entryIds.length === 0) return;
  await trx.updateTable("drawEntries").set({ orderId }).where("id", "in", entryIds).execute();
}

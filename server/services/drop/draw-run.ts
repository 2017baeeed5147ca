import { DRAW_MESSAGES } from "#server/contracts/draws";
import type { AppContext } from "#server/context";
import { forUpdateOnPostgres } from "#db/engine";
import { Conflict, NotFound } from "#server/errors";
import { mailerFor } from "#server/integrations/mail";
import { escapeHtml } from "#server/services/security/sanitize";
import { runDraw } from "./draw-math";
import { drawClaimUrl, drawToken } from "./draw-links";
import { stateOf } from "./draws";

/**
 * Drawing (issue 26, decision 0047): at the close the sweeper's leader draws (or the admin does,
 * after the close), exactly once across processes and machines: the draw's row is marked drawn
 * by one conditional update inside the transaction that writes the order and the winners, so a
 * second drawer finds it drawn and writes nothing. Mail follows from what is owed (`mailed_at`),
 * claimed per entry with a conditional update, so no entrant is mailed twice.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Draws one draw now. Returns whether this call drew it (false: another process already had).
 * `admin`: the admin pressed Draw, which is refused before the close and once drawn.
 */
export async function drawNow(ctx: AppContext, drawId: number, beacon: string, admin = false): Promise<boolean> {
  const now = ctx.clock.now();
  const drew = await ctx.db.transaction().execute(async (trx) => {
    const draw = await forUpdateOnPostgres(trx, trx.selectFrom("draws").selectAll().where("id", "=", drawId)).executeTakeFirst();
    if (!draw) throw new NotFound(DRAW_MESSAGES.notFound);
    const state = stateOf(draw, now);
    if (state === "drawn") {
      if (admin) throw new Conflict(DRAW_MESSAGES.alreadyDrawn);
      return false;
    }
    if (state !== "closed") throw new Conflict(DRAW_MESSAGES.notClosed);
    const marked = await trx
      .updateTable("draws")
      .set({ drawnAt: now.toISOString(), beacon })
      .where("id", "=", drawId)
      .where("drawnAt", "is", null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) return false;
    const entries = await trx
      .selectFrom("drawEntries")
      .select(["id", "n", "emailHash", "size"])
      .where("drawId", "=", drawId)
      .where("n", "is not", null)
      .execute();
    const { chain, order, winners } = runDraw({
      seedHex: draw.seed,
      commitment: draw.commitment,
      beacon,
      entries: entries.map((e) => ({ n: e.n!, emailHash: e.emailHash, size: e.size })),
      units: JSON.parse(draw.units) as Record<string, number>,
    });
    // The stored entries must give the chain everyone saw while entries were open.
    if (chain !== draw.chain) throw new Error(`Draw ${drawId}: the entries do not give the published chain.`);
    const idOf = new Map(entries.map((e) => [e.n!, e.id]));
    const won = new Set(winners);
    const claimExpiresAt = iso(now.getTime() + draw.claimMinutes * 60_000);
    for (const [i, n] of order.entries()) {
      await trx
        .updateTable("drawEntries")
        .set(won.has(n) ? { place: i + 1, wonAt: now.toISOString(), claimExpiresAt } : { place: i + 1 })
        .where("id", "=", idOf.get(n)!)
        .execute();
    }
    return true;
  });
  if (drew) await mailDrawResults(ctx, drawId);
  return drew;
}

/** The sweeper's chore: draws whose entries have closed are drawn (no beacon). */
export async function drawDueDraws(ctx: AppContext): Promise<number> {
  const due = await ctx.db
    .selectFrom("draws")
    .select("id")
    .where("drawnAt", "is", null)
    .where("entriesCloseAt", "<=", ctx.clock.now().toISOString())
    .execute();
  let drawn = 0;
  for (const { id } of due) if (await drawNow(ctx, id, "")) drawn += 1;
  return drawn;
}

/**
 * The sweeper's chore after the draw: a winner's purchase is recorded once paid; a winner who did
 * not pay within `claimMinutes` (and has no order whose hold is still live) loses the unit, which
 * goes to the next confirmed entrant of that size in the drawn order, until the entrants run out.
 */
export async function passDownLapsedClaims(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const paid = await ctx.db
    .selectFrom("drawEntries as e")
    .innerJoin("orders as o", "o.id", "e.orderId")
    .select(["e.id", "o.paidAt"])
    .where("e.paidAt", "is", null)
    .where("o.paidAt", "is not", null)
    .execute();
  for (const row of paid) await ctx.db.updateTable("drawEntries").set({ paidAt: row.paidAt }).where("id", "=", row.id).execute();

  const lapsed = await ctx.db
    .selectFrom("drawEntries as e")
    .leftJoin("orders as o", "o.id", "e.orderId")
    .select(["e.id", "e.drawId", "e.size"])
    .where("e.wonAt", "is not", null)
    .where("e.paidAt", "is", null)
    .where("e.lapsedAt", "is", null)
    .where("e.claimExpiresAt", "<=", now)
    // An order still holding the unit decides first: paid, it is theirs; expired, it lapses.
    .where((eb) => eb.or([eb("o.id", "is", null), eb("o.status", "=", "cancelled"), eb("o.holdExpiresAt", "<=", now)]))
    .where((eb) => eb.or([eb("o.id", "is", null), eb("o.paidAt", "is", null)]))
    .execute();
  let passed = 0;
  for (const entry of lapsed) {
    const next = await ctx.db.transaction().execute(async (trx) => {
      const draw = await forUpdateOnPostgres(
        trx,
        trx.selectFrom("draws").select(["claimMinutes"]).where("id", "=", entry.drawId),
      ).executeTakeFirstOrThrow();
      const ended = await trx
        .updateTable("drawEntries")
        .set({ lapsedAt: now })
        .where("id", "=", entry.id)
        .where("lapsedAt", "is", null)
        .where("paidAt", "is", null)
        .executeTakeFirst();
      if (Number(ended.numUpdatedRows) !== 1) return null;
      const successor = await trx
        .selectFrom("drawEntries")
        .select("id")
        .where("drawId", "=", entry.drawId)
        .where("size", "=", entry.size)
        .where("place", "is not", null)
        .where("wonAt", "is", null)
        .orderBy("place")
        .limit(1)
        .executeTakeFirst();
      if (!successor) return null;
      const claimExpiresAt = iso(ctx.clock.now().getTime() + draw.claimMinutes * 60_000);
      await trx.updateTable("drawEntries").set({ wonAt: now, claimExpiresAt, mailedAt: null }).where("id", "=", successor.id).execute();
      return entry.drawId;
    });
    if (next !== null) {
      passed += 1;
      await mailDrawResults(ctx, next);
    }
  }
  return passed;
}

/**
 * Mails what a drawn draw owes its confirmed entrants: a winner their link to buy, everyone else
 * that they were not picked (a later winner by succession is mailed again: `mailed_at` cleared).
 * Each entry is claimed with a conditional update before its mail, so two processes never both send.
 */
export async function mailDrawResults(ctx: AppContext, drawId?: number): Promise<number> {
  let query = ctx.db
    .selectFrom("drawEntries as e")
    .innerJoin("draws as d", "d.id", "e.drawId")
    .innerJoin("products as p", "p.id", "d.productId")
    .select(["e.id", "e.drawId", "e.email", "e.size", "e.wonAt", "e.lapsedAt", "e.claimExpiresAt", "p.name", "d.siteOrigin"])
    .where("d.drawnAt", "is not", null)
    .where("e.n", "is not", null)
    .where("e.mailedAt", "is", null)
    .orderBy("e.id")
    .limit(500);
  if (drawId !== undefined) query = query.where("e.drawId", "=", drawId);
  const owed = await query.execute();
  let sent = 0;
  for (const entry of owed) {
    const claimed = await ctx.db
      .updateTable("drawEntries")
      .set({ mailedAt: ctx.clock.now().toISOString() })
      .where("id", "=", entry.id)
      .where("mailedAt", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1 || entry.lapsedAt) continue;
    const product = escapeHtml(entry.name);
    if (entry.wonAt) {
      const url = drawClaimUrl(
        ctx.config.publicUrl ?? entry.siteOrigin,
        entry.drawId,
        drawToken(ctx.config.sessionSecret, "claim", entry.id),
      );
      const until = new Date(entry.claimExpiresAt!).toUTCString();
      await mailerFor(ctx).send({
        stream: "outbound",
        to: entry.email,
        subject: `You were picked: ${entry.name}`,
        tag: "draw-won",
        html:
          `<p>Good news: you were picked in the draw for <strong>${product}</strong>${entry.size ? ` (size ${escapeHtml(entry.size)})` : ""}.</p>` +
          `<p><a href="${escapeHtml(url)}">Buy it here</a> before ${escapeHtml(until)}. The link works in the first browser that opens it.</p>`,
        text: `Good news: you were picked in the draw for ${entry.name}${entry.size ? ` (size ${entry.size})` : ""}.\n\nBuy it here before ${until}: ${url}\nThe link works in the first browser that opens it.`,
      });
    } else {
      await mailerFor(ctx).send({
        stream: "outbound",
        to: entry.email,
        subject: `The draw for ${entry.name}`,
        tag: "draw-not-picked",
        html: `<p>Thank you for entering the draw for <strong>${product}</strong>. You were not picked this time; if a winner does not buy, we will e-mail you should the unit pass to you.</p>`,
        text: `Thank you for entering the draw for ${entry.name}. You were not picked this time; if a winner does not buy, we will e-mail you should the unit pass to you.`,
      });
    }
    sent += 1;
  }
  return sent;
}

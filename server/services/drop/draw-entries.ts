import { DRAW_MESSAGES, type DrawEntryInput, type DrawEntryView } from "#server/contracts/draws";
import { SIZE_MESSAGES } from "#server/contracts/sizes-view";
import type { AppContext } from "#server/context";
import { forUpdateOnPostgres } from "#db/engine";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { mailerFor } from "#server/integrations/mail";
import { AddressRateLimiter } from "#server/services/security/rate-limit";
import { escapeHtml } from "#server/services/security/sanitize";
import { refuseFilledHoneypot } from "./bots";
import { emailHashOf, identityOf, nextChain } from "./draw-math";
import { drawConfirmUrl, drawToken, entryIdOf } from "./draw-links";
import { drawSizesOf, offeredSize } from "./draw-sizes";
import { drawRow, stateOf } from "./draws";
import { logWarning } from "#server/observability/log";

/**
 * Entering a draw (issue 26, decision 0047): an entry per person (the folded e-mail), confirmed
 * by a link mailed to that address; only confirmed entries are numbered, chained and drawn.
 */

// A person enters once; a script entering address after address from one network is stopped.
const entriesPerIp = new AddressRateLimiter("draw-entries-per-ip", 20, 10 * 60 * 1000);

/** Test hook. */
export async function resetDrawEntryLimits(ctx: AppContext): Promise<void> {
  await entriesPerIp.clear(ctx);
}

export const ENTERED = { message: DRAW_MESSAGES.entered } as const;

/**
 * POST /api/draws/{id}/entries. A new entry is stored and its confirmation link mailed; a repeat
 * (the same person however they spell their address) gets the same answer and changes nothing.
 */
export async function enterDraw(ctx: AppContext, drawId: number, input: DrawEntryInput, clientIp: string): Promise<typeof ENTERED> {
  refuseFilledHoneypot(input.website);
  const draw = await drawRow(ctx, drawId);
  if (stateOf(draw, ctx.clock.now()) !== "open") throw new Conflict(DRAW_MESSAGES.notOpen);
  const sizes = await drawSizesOf(ctx, draw);
  const size = offeredSize(sizes, input.size);
  if (size === null) {
    // A product with sizes names the size it does not offer; one without keeps the plain answer.
    const message =
      sizes.length > 0 && input.size !== "" ? SIZE_MESSAGES.sizeNotAvailable(input.size, draw.productName) : DRAW_MESSAGES.size;
    throw new Invalid(message, { size: [message] });
  }
  await entriesPerIp.take(ctx, clientIp, DRAW_MESSAGES.tooMany);
  const inserted = await ctx.db
    .insertInto("drawEntries")
    .values({
      drawId,
      identityKey: identityOf(input.email),
      email: input.email,
      name: input.name,
      size,
      emailHash: emailHashOf(drawId, input.email),
      createdAt: ctx.clock.now().toISOString(),
    })
    .onConflict((oc) => oc.columns(["drawId", "identityKey"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return ENTERED;
  const url = drawConfirmUrl(ctx.config.publicUrl ?? draw.siteOrigin, drawId, drawToken(ctx.config.sessionSecret, "confirm", inserted.id));
  const product = escapeHtml(draw.productName);
  const result = await mailerFor(ctx).send({
    stream: "outbound",
    to: input.email,
    subject: `Confirm your entry: ${draw.productName}`,
    tag: "draw-confirm",
    html:
      `<p>You asked to enter the draw for <strong>${product}</strong>${size ? ` in size ${escapeHtml(size)}` : ""}.</p>` +
      `<p><a href="${escapeHtml(url)}">Confirm your entry</a></p>` +
      `<p>Only confirmed entries take part. If this was not you, ignore this e-mail.</p>`,
    text: `You asked to enter the draw for ${draw.productName}${size ? ` in size ${size}` : ""}.\n\nConfirm your entry: ${url}\n\nOnly confirmed entries take part. If this was not you, ignore this e-mail.`,
  });
  if (result.status === "failed") logWarning(`Draw ${drawId}: the confirmation e-mail of entry ${inserted.id} failed: ${result.error}`);
  return ENTERED;
}

async function entryOf(ctx: AppContext, drawId: number, token: string) {
  const id = entryIdOf(ctx.config, "confirm", token);
  const entry = id
    ? await ctx.db.selectFrom("drawEntries").selectAll().where("id", "=", id).where("drawId", "=", drawId).executeTakeFirst()
    : undefined;
  if (!entry) throw new NotFound(DRAW_MESSAGES.confirmInvalid);
  return entry;
}

/** The confirm page (GET): the entry and, once confirmed, its receipt. Writes nothing. */
export async function drawEntryView(ctx: AppContext, drawId: number, token: string): Promise<DrawEntryView> {
  const entry = await entryOf(ctx, drawId, token);
  const draw = await drawRow(ctx, drawId);
  return {
    drawId,
    productName: draw.productName,
    email: entry.email,
    size: entry.size,
    state: stateOf(draw, ctx.clock.now()),
    confirmed: entry.n !== null,
    receipt: entry.n === null ? null : { n: entry.n, emailHash: entry.emailHash, chain: entry.chain!, commitment: draw.commitment },
  };
}

/**
 * Confirms an entry (the confirm page's button): numbered next and chained, in one transaction
 * with the draw's row locked, so two confirmations never take one number. Again: unchanged.
 */
export async function confirmDrawEntry(ctx: AppContext, drawId: number, token: string): Promise<DrawEntryView> {
  const entry = await entryOf(ctx, drawId, token);
  if (entry.n === null) {
    await ctx.db.transaction().execute(async (trx) => {
      const draw = await forUpdateOnPostgres(
        trx,
        trx.selectFrom("draws").select(["chain", "entryCount", "entriesOpenAt", "entriesCloseAt", "drawnAt"]).where("id", "=", drawId),
      ).executeTakeFirstOrThrow();
      if (stateOf(draw, ctx.clock.now()) !== "open") throw new Conflict(DRAW_MESSAGES.confirmClosed);
      const fresh = await trx.selectFrom("drawEntries").select("n").where("id", "=", entry.id).executeTakeFirstOrThrow();
      if (fresh.n !== null) return;
      const n = draw.entryCount + 1;
      const chain = nextChain(draw.chain, n, entry.emailHash, entry.size);
      await trx
        .updateTable("drawEntries")
        .set({ n, chain, confirmedAt: ctx.clock.now().toISOString() })
        .where("id", "=", entry.id)
        .where("n", "is", null)
        .execute();
      await trx.updateTable("draws").set({ entryCount: n, chain }).where("id", "=", drawId).execute();
    });
  }
  return drawEntryView(ctx, drawId, token);
}

import crypto from "node:crypto";
import type { Order } from "#db/schema";
import { LABEL_MESSAGES } from "#server/contracts/admin-orders";
import { orderNumberOf } from "#server/contracts/checkout";
import type { Address } from "#server/contracts/checkout-form";
import type { AppContext } from "#server/context";
import { choiceLabel } from "#server/contracts/sizes-view";
import { isConnectionLost } from "#db/connection-lost";
import { Conflict, NotFound } from "#server/errors";
import { mailerFor } from "#server/integrations/mail";
import { parcelFor, shippingFor, type BoughtLabel, type FoundLabel } from "#server/integrations/shipping";
import { holdLease, releaseLease } from "#server/services/jobs/leases";
import { orderConfirmationEmail } from "#server/services/mail/order-emails";
import { meter } from "#server/observability/meter";
import { orderPageUrl } from "#server/services/orders/order-page-token";
import { log, logError } from "#server/observability/log";
import { raiseAlert } from "#server/services/alerts/alerts";
import {
  itemsOfOrder,
  labelCreated,
  labelsOfOrder,
  markConfirmationSent,
  markTried,
  newLabelRow,
  orderById,
} from "./fulfilment-statements";

/** Tries before a step is left to the admin (the outbox shows the mail, the order the label error). */
export const MAX_FULFIL_ATTEMPTS = 6;
/** 2, 4, 8, 16, 32 minutes between tries: about an hour in all, past most provider outages. */
export const fulfilBackoffMs = (attempts: number) => 2 ** attempts * 60_000;

/** Longer than a fulfilment waiting on slow providers; a worker that died mid-run frees the order after it. */
const CLAIM_MS = 10 * 60_000;

/**
 * Keeps the fulfilment job (fulfilment-job.ts) and the admin's Buy Label Again off the same order at once,
 * whichever worker (or machine) each runs in: a lease row per order, held by `holder`.
 * Returns the release, or null when someone else is working on the order.
 *
 * The job passes a holder of its own that it keeps from order to order: when the database went
 * away mid-order (a PostgreSQL restart), the claim may be written with its answer lost, or left
 * unreleased, and the job takes its own claim again on its next pass instead of leaving the order
 * for CLAIM_MS. One job works one order at a time, so its holder never claims twice at once.
 */
async function claimOrder(ctx: AppContext, orderId: number, holder: string): Promise<(() => Promise<void>) | null> {
  const name = `fulfil-order-${orderId}`;
  if (!(await holdLease(ctx, name, holder, CLAIM_MS))) return null;
  // A release that fails (the database went away) leaves a claim that the holder takes again, or that runs out.
  return () => releaseLease(ctx, name, holder).catch(() => {});
}

export type FulfilOutcome = { mail: boolean; label: boolean; done: boolean } | null;

/**
 * What a paid order is owed: the confirmation e-mail and the shipping label, each once. Safe to
 * call again and again: a finished step is skipped, an unfinished one retried, and the order is
 * marked fulfilled when both are done or after the last try. Never throws for a provider's failure.
 */
export async function fulfilOrder(ctx: AppContext, orderId: number, holder: string = crypto.randomUUID()): Promise<FulfilOutcome> {
  const release = await claimOrder(ctx, orderId, holder);
  if (!release) return null;
  try {
    const order = await orderById.first(ctx.db, { id: orderId });
    if (!order?.paidAt || order.fulfilledAt) return null;
    const now = () => ctx.clock.now().toISOString();

    // A cancelled or refunded order ships nothing and confirms nothing.
    if (order.status === "cancelled" || order.refundStatus === "completed") {
      await ctx.db.updateTable("orders").set({ fulfilledAt: now(), fulfilNextAt: null }).where("id", "=", orderId).execute();
      return { mail: false, label: false, done: true };
    }

    const items = await itemsOf(ctx, orderId);
    const mail = order.confirmationSentAt ? true : await sendConfirmation(ctx, order, items);
    const bought = await ensureLabel(ctx, order, items);
    const label = bought.ok;
    if (!bought.ok) await raiseAlert(ctx, "label-failed", `Order ${order.id}: the shipping label could not be bought (${bought.error}).`);

    const attempts = order.fulfilAttempts + 1;
    const done = (mail && label) || attempts >= MAX_FULFIL_ATTEMPTS;
    const at = ctx.clock.now();
    await markTried.run(ctx.db, {
      id: orderId,
      attempts,
      fulfilledAt: done ? at.toISOString() : null,
      nextAt: done ? null : new Date(at.getTime() + fulfilBackoffMs(attempts)).toISOString(),
    });
    if (done && !(mail && label)) {
      log.error(
        `Order ${orderId}: gave up after ${attempts} tries (e-mail ${mail ? "sent" : "not sent"}, label ${label ? "bought" : "not bought"}).`,
      );
    }
    return { mail, label, done };
  } finally {
    await release();
  }
}

/**
 * Paid orders still owed their e-mail or label and due now: never tried yet (just paid, or left by
 * a crash), or whose next try after a failure has come. Oldest payment first.
 */
export async function dueOrders(ctx: AppContext, limit = 20): Promise<{ id: number; paidAt: string }[]> {
  const now = ctx.clock.now().toISOString();
  const rows = await ctx.db
    .selectFrom("orders")
    .select(["id", "paidAt"])
    .where("paidAt", "is not", null)
    .where("fulfilledAt", "is", null)
    .where((eb) => eb.or([eb("fulfilNextAt", "is", null), eb("fulfilNextAt", "<=", now)]))
    .orderBy("paidAt")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(({ id, paidAt }) => ({ id, paidAt: paidAt! }));
}

/**
 * One pass of the fulfilment job (fulfilment-job.ts, decision 0027): `fulfilOrder` for each due
 * order, after `beforeEach` (where the job yields to shoppers' requests). Returns how many orders
 * it worked on; one another worker holds is skipped, and found again on a later pass.
 */
export async function fulfilDueOrders(
  ctx: AppContext,
  options: {
    limit?: number;
    beforeEach?: (order: { id: number; paidAt: string }) => Promise<void>;
    stillRunning?: () => boolean;
    /** The job's own claim holder (see claimOrder); each call claims afresh without one. */
    holder?: string;
  } = {},
): Promise<number> {
  const { limit = 20, beforeEach, stillRunning = () => true, holder } = options;
  let worked = 0;
  for (const order of await dueOrders(ctx, limit)) {
    if (beforeEach) await beforeEach(order);
    if (!stillRunning()) break;
    if (await fulfilOrder(ctx, order.id, holder)) worked++;
  }
  return worked;
}

/**
 * The admin's "Buy Label Again" (order View dialog), once the automatic tries have failed or the
 * admin has fixed what Shippo complained about. Answers the order's label row; Shippo's refusal
 * comes back as a Conflict with its reason (the row keeps it too).
 */
export async function buyLabelAgain(ctx: AppContext, orderId: number) {
  const order = await ctx.db.selectFrom("orders").selectAll().where("id", "=", orderId).executeTakeFirst();
  if (!order) throw new NotFound("Order not found.");
  if (!order.paidAt) throw new Conflict(LABEL_MESSAGES.notPaid);
  if (order.status === "cancelled" || order.refundStatus === "completed") throw new Conflict(LABEL_MESSAGES.cancelled);
  const release = await claimOrder(ctx, orderId, crypto.randomUUID());
  if (!release) throw new Conflict(LABEL_MESSAGES.busy);
  try {
    const labels = await ctx.db.selectFrom("shippingLabels").select("status").where("orderId", "=", orderId).execute();
    // A `purchasing` row (a try that crashed) is finished, not refused: ensureLabel finds its label.
    if (labels.some((l) => l.status === "created")) throw new Conflict(LABEL_MESSAGES.exists);
    const result = await ensureLabel(ctx, order, await itemsOf(ctx, orderId));
    if (!result.ok) throw new Conflict(`${LABEL_MESSAGES.failed}: ${result.error}`);
    return await ctx.db
      .selectFrom("shippingLabels")
      .selectAll()
      .where("orderId", "=", orderId)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
  } finally {
    await release();
  }
}

function itemsOf(ctx: AppContext, orderId: number): Promise<Item[]> {
  return itemsOfOrder.all(ctx.db, { orderId });
}

type Item = {
  productName: string;
  size: string | null;
  color: string | null;
  productPriceCents: number;
  quantity: number;
  totalCents: number;
  weight: number | null;
  length: number | null;
  width: number | null;
  height: number | null;
};

async function sendConfirmation(ctx: AppContext, order: Order, items: Item[]): Promise<boolean> {
  try {
    const pageUrl = await orderPageUrl(ctx, order);
    // One key per order (decision 0063): a try after the database went away finds the first send.
    const mail = { ...orderConfirmationEmail(ctx, order, items, pageUrl), idempotencyKey: `order-${order.id}-confirmation` };
    const result = await mailerFor(ctx).send(mail);
    if (result.status === "failed") {
      meter().fulfilmentFailed("email");
      await raiseAlert(
        ctx,
        "outbox-failing",
        `Order ${order.id}: the confirmation e-mail could not be sent (${result.error ?? "unknown error"}).`,
      );
      return false;
    }
    await markConfirmationSent.run(ctx.db, { id: order.id, now: ctx.clock.now().toISOString() });
    return true;
  } catch (error) {
    // The database gone (a restart) is not a try the provider failed: the order stays due as it was.
    if (isConnectionLost(error)) throw error;
    logError(`Order ${order.id}: the confirmation e-mail could not be sent`, error);
    meter().fulfilmentFailed("email");
    await raiseAlert(ctx, "outbox-failing", `Order ${order.id}: the confirmation e-mail could not be sent.`);
    return false;
  }
}

/**
 * Buys the label unless the order has one. An order keeps one label row: a failure is recorded on
 * it (the admin sees why), and a later success turns that same row into the label. Crash-safe
 * (decision 0038): the row is written (`purchasing`, with an idempotency key the provider sees)
 * before buying, so a try after a crash or a lost answer first asks the provider for the label
 * bought with that key, and buys only when there is none.
 */
async function ensureLabel(ctx: AppContext, order: Order, items: Item[]): Promise<{ ok: true } | { ok: false; error: string }> {
  const existing = await labelsOfOrder.all(ctx.db, { orderId: order.id });
  if (existing.some((l) => l.status === "created")) return { ok: true };
  const earlier = existing[0];
  const row = earlier
    ? { id: earlier.id, idempotencyKey: earlier.idempotencyKey ?? crypto.randomUUID(), providerRef: earlier.providerRef }
    : { id: null, idempotencyKey: crypto.randomUUID(), providerRef: null };
  const carrier = (order.shippingMethod ?? "unknown-unknown").split("-")[0]!.toUpperCase();
  const labelId = row.id
    ? (
        await ctx.db
          .updateTable("shippingLabels")
          .set({ status: "purchasing", idempotencyKey: row.idempotencyKey })
          .where("id", "=", row.id)
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id
    : (await newLabelRow.first(ctx.db, { orderId: order.id, carrier, costCents: order.shippingCents, idempotencyKey: row.idempotencyKey }))!
        .id;

  const address = JSON.parse(order.shippingAddress) as Address;
  const parcel = parcelFor(
    items.map((i) => ({ quantity: i.quantity, weight: i.weight ?? 1, length: i.length ?? 12, width: i.width ?? 9, height: i.height ?? 6 })),
  );
  const shipping = shippingFor(ctx);
  try {
    // An earlier try may have bought the label and lost the answer (a crash, a timeout).
    const found = earlier
      ? await shipping.findLabel({ orderId: order.id, idempotencyKey: row.idempotencyKey, providerRef: row.providerRef })
      : null;
    const label: FoundLabel & Partial<Pick<BoughtLabel, "carrier" | "costCents">> =
      found ??
      (await shipping.buyLabel({
        orderId: order.id,
        to: { ...address, name: order.customerName, phone: order.customerPhone ?? undefined, email: order.customerEmail },
        parcel,
        methodKey: order.shippingMethod ?? "",
        contents: items.map((i) => ({
          // The label's contents name the size and colour packed (decision 0045).
          description: choiceLabel(i.size, i.color) ? `${i.productName} (${choiceLabel(i.size, i.color)})` : i.productName,
          quantity: i.quantity,
          weightLbs: i.weight ?? 1,
          valueCents: i.totalCents,
        })),
        packingSlip: {
          orderNumber: orderNumberOf(order),
          lines: items.map((i) => ({ name: i.productName, size: i.size, color: i.color, quantity: i.quantity })),
        },
        idempotencyKey: row.idempotencyKey,
        remember: async (providerRef) => {
          await ctx.db.updateTable("shippingLabels").set({ providerRef }).where("id", "=", labelId).execute();
        },
      }));
    // Found again, the row keeps the carrier and cost it was written with.
    const bought = label.carrier !== undefined && label.costCents !== undefined;
    await labelCreated.run(ctx.db, {
      id: labelId,
      labelUrl: label.labelUrl,
      trackingNumber: label.trackingNumber,
      carrier: bought ? label.carrier! : null,
      costCents: bought ? label.costCents! : null,
      providerRef: label.providerRef || null,
      now: ctx.clock.now().toISOString(),
    });
    return { ok: true };
  } catch (error) {
    // The row stays `purchasing` with its key: the next try asks the provider for that label first.
    if (isConnectionLost(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    meter().fulfilmentFailed("label");
    await ctx.db
      .updateTable("shippingLabels")
      .set({ status: "failed", errorMessage: message, createdAt: ctx.clock.now().toISOString() })
      .where("id", "=", labelId)
      .execute();
    return { ok: false, error: message };
  }
}

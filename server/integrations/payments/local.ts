import crypto from "node:crypto";
import type { AppContext } from "#server/context";
import { compiledOnce } from "#db/compiled-query";
import { Conflict, Invalid, NotFound } from "#server/errors";
import type { IntentStatus, PaymentIntentView, PaymentProvider } from "./types";

/**
 * The built-in test processor: the same flow as Stripe's PaymentIntents, kept in SQLite, so the
 * whole checkout runs offline. It only ever accepts test card numbers; it is labelled test mode.
 */
export const LOCAL_TEST_CARDS: Record<string, { outcome: "succeeded" } | { outcome: "declined"; message: string }> = {
  "4242424242424242": { outcome: "succeeded" },
  "5555555555554444": { outcome: "succeeded" },
  "4000000000000002": { outcome: "declined", message: "Your card was declined." },
  "4000000000009995": { outcome: "declined", message: "Your card has insufficient funds." },
  "4000000000000069": { outcome: "declined", message: "Your card has expired." },
};

// The payment step reads the intent by its secret and again after paying: kept compiled.
const intentBySecret = compiledOnce((db, $: { clientSecret: string }) =>
  db.selectFrom("localPaymentIntents").selectAll().where("clientSecret", "=", $.clientSecret),
);
const intentById = compiledOnce((db, $: { id: string }) => db.selectFrom("localPaymentIntents").selectAll().where("id", "=", $.id));
const payIntent = compiledOnce((db, $: { id: string; status: string; lastError: string | null; updatedAt: string }) =>
  db
    .updateTable("localPaymentIntents")
    .set({ status: $.status, lastError: $.lastError, updatedAt: $.updatedAt })
    .where("id", "=", $.id)
    .where("status", "in", ["requires_payment_method", "requires_confirmation"]),
);

const id = (prefix: string) => `${prefix}_local_${crypto.randomBytes(12).toString("hex")}`;

export function localPayments(ctx: AppContext): PaymentProvider {
  return {
    mode: "test",
    async createIntent({ amountCents, orderId, idempotencyKey }) {
      const existing = await ctx.db
        .selectFrom("localPaymentIntents")
        .select(["id", "clientSecret"])
        .where("idempotencyKey", "=", idempotencyKey)
        .executeTakeFirst();
      if (existing) return existing;
      const intentId = id("pi");
      const clientSecret = `${intentId}_secret_${crypto.randomBytes(12).toString("hex")}`;
      await ctx.db.insertInto("localPaymentIntents").values({ id: intentId, clientSecret, amountCents, orderId, idempotencyKey }).execute();
      return { id: intentId, clientSecret };
    },
    async retrieveIntent(intentId) {
      const row = await intentById.first(ctx.db, { id: intentId });
      if (!row) throw new NotFound("Payment not found.");
      return toView(row);
    },
    async cancelIntent(intentId) {
      await ctx.db
        .updateTable("localPaymentIntents")
        .set({ status: "canceled", updatedAt: ctx.clock.now().toISOString() })
        .where("id", "=", intentId)
        .where("status", "not in", ["succeeded", "canceled"])
        .execute();
    },
    async refund({ paymentIntentId, amountCents, idempotencyKey }) {
      // As Stripe does: a key already used answers its refund again (the same parameters only).
      return ctx.db.transaction().execute(async (trx) => {
        const earlier = await trx.selectFrom("localRefunds").selectAll().where("idempotencyKey", "=", idempotencyKey).executeTakeFirst();
        if (earlier) {
          if (earlier.paymentIntentId !== paymentIntentId || earlier.amountCents !== amountCents)
            throw new Conflict("This idempotency key was used for another refund.");
          return { id: earlier.id, status: earlier.status };
        }
        const updated = await trx
          .updateTable("localPaymentIntents")
          .set((eb) => ({ refundedCents: eb("refundedCents", "+", amountCents), updatedAt: ctx.clock.now().toISOString() }))
          .where("id", "=", paymentIntentId)
          .where("status", "=", "succeeded")
          .where((eb) => eb(eb("refundedCents", "+", amountCents), "<=", eb.ref("amountCents")))
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) throw new Conflict("This payment cannot be refunded by that amount.");
        const refund = { id: id("re"), status: "succeeded" };
        await trx
          .insertInto("localRefunds")
          .values({ ...refund, paymentIntentId, idempotencyKey, amountCents, createdAt: ctx.clock.now().toISOString() })
          .execute();
        return refund;
      });
    },
    async findRefund({ paymentIntentId, idempotencyKey }) {
      const row = await ctx.db
        .selectFrom("localRefunds")
        .select(["id", "status", "amountCents"])
        .where("idempotencyKey", "=", idempotencyKey)
        .where("paymentIntentId", "=", paymentIntentId)
        .executeTakeFirst();
      return row ?? null;
    },
  };
}

function toView(row: {
  id: string;
  status: string;
  amountCents: number;
  lastError: string | null;
  orderId: number | null;
  refundedCents: number;
}): PaymentIntentView {
  return {
    id: row.id,
    status: row.status as IntentStatus,
    amountCents: row.amountCents,
    lastError: row.lastError,
    orderId: row.orderId,
    refundedCents: row.refundedCents,
  };
}

/**
 * Pays a local intent with a test card, as Stripe.js would with the Payment Element. A decline
 * leaves the intent payable again, so the buyer can retry with another card.
 */
export async function payLocalIntent(ctx: AppContext, input: { clientSecret: string; cardNumber: string }): Promise<PaymentIntentView> {
  const row = await intentBySecret.first(ctx.db, { clientSecret: input.clientSecret });
  if (!row) throw new NotFound("Payment not found.");
  if (row.status === "succeeded") return toView(row);
  if (row.status === "canceled") throw new Conflict("This payment has expired. Please start the checkout again.");
  const card = LOCAL_TEST_CARDS[input.cardNumber.replace(/[\s-]/g, "")];
  if (!card) {
    throw new Invalid("Test mode accepts test cards only, such as 4242 4242 4242 4242.", {
      cardNumber: ["Use a test card, such as 4242 4242 4242 4242."],
    });
  }
  const now = ctx.clock.now().toISOString();
  const next =
    card.outcome === "succeeded"
      ? { status: "succeeded", lastError: null, updatedAt: now }
      : { status: "requires_payment_method", lastError: card.message, updatedAt: now };
  // Only an intent still awaiting payment moves: a second click cannot pay twice.
  await payIntent.run(ctx.db, { id: row.id, ...next });
  const after = await intentById.first(ctx.db, { id: row.id });
  if (!after) throw new NotFound("Payment not found.");
  return toView(after);
}

/** The same, for a page that knows the intent's id (the no-JavaScript pay page) rather than its secret. */
export async function payLocalIntentById(
  ctx: AppContext,
  input: { paymentIntentId: string; cardNumber: string },
): Promise<PaymentIntentView> {
  const row = await ctx.db
    .selectFrom("localPaymentIntents")
    .select("clientSecret")
    .where("id", "=", input.paymentIntentId)
    .executeTakeFirst();
  if (!row) throw new NotFound("Payment not found.");
  return payLocalIntent(ctx, { clientSecret: row.clientSecret, cardNumber: input.cardNumber });
}

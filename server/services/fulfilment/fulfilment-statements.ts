import { sql } from "kysely";
import { compiledOnce } from "#db/compiled-query";

// The statements each paid order runs once in the fulfilment job (fulfilment.ts): kept compiled
// (db/compiled-query.ts), since a drop runs them for every order it sold.

export const orderById = compiledOnce((db, $: { id: number }) => db.selectFrom("orders").selectAll().where("id", "=", $.id));
export const itemsOfOrder = compiledOnce((db, $: { orderId: number }) =>
  db
    .selectFrom("orderItems")
    .leftJoin("products", "products.id", "orderItems.productId")
    .select([
      "orderItems.productName",
      "orderItems.productPriceCents",
      "orderItems.quantity",
      "orderItems.totalCents",
      "orderItems.size",
      "orderItems.color",
      "products.weight",
      "products.length",
      "products.width",
      "products.height",
    ])
    .where("orderId", "=", $.orderId)
    .orderBy("orderItems.id"),
);
export const markConfirmationSent = compiledOnce((db, $: { id: number; now: string }) =>
  db.updateTable("orders").set({ confirmationSentAt: $.now }).where("id", "=", $.id),
);
export const markTried = compiledOnce((db, $: { id: number; attempts: number; fulfilledAt: string | null; nextAt: string | null }) =>
  db.updateTable("orders").set({ fulfilAttempts: $.attempts, fulfilledAt: $.fulfilledAt, fulfilNextAt: $.nextAt }).where("id", "=", $.id),
);
export const labelsOfOrder = compiledOnce((db, $: { orderId: number }) =>
  db
    .selectFrom("shippingLabels")
    .select(["id", "status", "idempotencyKey", "providerRef"])
    .where("orderId", "=", $.orderId)
    .orderBy("id", "desc"),
);
export const newLabelRow = compiledOnce((db, $: { orderId: number; carrier: string; costCents: number; idempotencyKey: string }) =>
  db
    .insertInto("shippingLabels")
    .values({ orderId: $.orderId, carrier: $.carrier, costCents: $.costCents, status: "purchasing", idempotencyKey: $.idempotencyKey })
    .returning("id"),
);
/** A label found again (no carrier or cost given) keeps those it was written with; so does a provider reference. */
export const labelCreated = compiledOnce(
  (
    db,
    $: {
      id: number;
      labelUrl: string;
      trackingNumber: string;
      carrier: string | null;
      costCents: number | null;
      providerRef: string | null;
      now: string;
    },
  ) =>
    db
      .updateTable("shippingLabels")
      .set({
        labelUrl: $.labelUrl,
        trackingNumber: $.trackingNumber,
        carrier: sql<string>`coalesce(${$.carrier}, carrier)`,
        costCents: sql<number>`coalesce(${$.costCents}, cost_cents)`,
        providerRef: sql<string | null>`coalesce(${$.providerRef}, provider_ref)`,
        status: "created",
        errorMessage: null,
        createdAt: $.now,
      })
      .where("id", "=", $.id),
);

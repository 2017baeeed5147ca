import { orderNumberOf } from "#server/contracts/checkout";
import { toDollars } from "#server/contracts/money";
import type { OrderPageAnswer, OrderPageView, TimelineStep } from "#server/contracts/order-page";
import { ORDER_PAGE_MESSAGES } from "#server/contracts/order-page";
import { formatStoreDate } from "#server/contracts/store-time";
import type { AppContext } from "#server/context";
import type { Order } from "#db/schema";
import { NotFound } from "#server/errors";
import { trackingFor } from "#server/services/fulfilment/tracking-links";
import { orderIdForToken } from "./order-page-token";

/**
 * The buyer's order page (issue 25, decision 0046): what an order's token opens, for
 * GET /api/orders/{token} and the /orders/{token} page alike. Any other token: NotFound.
 */

type Line = {
  productName: string;
  productPriceCents: number;
  quantity: number;
  totalCents: number;
  imageUrl: string | null;
  size: string | null;
};

/**
 * A line's size: null where the product has none (order_items.size, issue 23). The one place the
 * page and the API read it.
 */
export function sizeOfLine(line: Line): string | null {
  return line.size || null;
}

/** A late payment refunded at once was never paid for the buyer: closed with paid_at = refunded_at. */
const refundedOnArrival = (order: Order) => order.status === "cancelled" && order.paidAt !== null && order.paidAt === order.refundedAt;

function timelineOf(order: Order, labelAt: string | null): OrderPageAnswer["timeline"] {
  const steps: [TimelineStep, string | null][] = [
    ["placed", order.createdAt],
    ["paid", refundedOnArrival(order) ? null : order.paidAt],
    ["label_created", labelAt],
    ["shipped", order.shippedAt],
    ["delivered", order.deliveredAt],
    ["refunded", order.refundStatus === "completed" ? order.refundedAt : null],
    // Cancelled before there was a time for it (before 0022): the order's last change.
    ["cancelled", order.status === "cancelled" ? (order.cancelledAt ?? order.updatedAt) : null],
  ];
  // Oldest first; steps at the same instant keep their order above.
  return steps
    .map(([status, at], index) => ({ status, at, index }))
    .filter((step): step is { status: TimelineStep; at: string; index: number } => step.at !== null)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.index - b.index))
    .map(({ status, at }) => ({ status, at }));
}

/** "1234 Main Street" → "1••• M••• Street": enough for the buyer to know it, little for anyone else. */
export function maskStreet(street: string): string {
  const words = street.trim().split(/\s+/).filter(Boolean);
  return words
    .map((word, index) =>
      index === words.length - 1 && words.length > 1 ? word : word.slice(0, 1) + "•".repeat(Math.max(2, word.length - 1)),
    )
    .join(" ");
}

function shipToOf(order: Order): OrderPageView["shipTo"] {
  let address: Partial<Record<"street" | "city" | "state" | "zipCode" | "country", unknown>> = {};
  try {
    const parsed: unknown = JSON.parse(order.shippingAddress);
    if (parsed && typeof parsed === "object") address = parsed;
  } catch {
    // Not JSON: nothing of it is shown (the spec shows it raw to the admin only).
  }
  const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
  const place = [text(address.city), [text(address.state), text(address.zipCode)].filter(Boolean).join(" ")].filter(Boolean).join(", ");
  return { name: order.customerName, lines: [maskStreet(text(address.street)), place, text(address.country)].filter(Boolean) };
}

async function loadOrder(ctx: AppContext, token: string) {
  const id = await orderIdForToken(ctx, token);
  if (id === null) throw new NotFound(ORDER_PAGE_MESSAGES.notFound);
  const [order, items, labels] = await Promise.all([
    ctx.db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow(),
    ctx.db
      .selectFrom("orderItems")
      .leftJoin("products", "products.id", "orderItems.productId")
      .select([
        "orderItems.productName",
        "orderItems.productPriceCents",
        "orderItems.quantity",
        "orderItems.totalCents",
        "orderItems.size",
        "products.imageUrl",
      ])
      .where("orderItems.orderId", "=", id)
      .orderBy("orderItems.id")
      .execute(),
    ctx.db
      .selectFrom("shippingLabels")
      .select(["carrier", "trackingNumber", "createdAt"])
      .where("orderId", "=", id)
      .where("status", "=", "created")
      .orderBy("id", "desc")
      .execute(),
  ]);
  return { order, items, label: labels[0] ?? null };
}

function answerOf({ order, items, label }: Awaited<ReturnType<typeof loadOrder>>): OrderPageAnswer {
  return {
    orderNumber: orderNumberOf(order),
    status: order.status,
    refundStatus: order.refundStatus,
    createdAt: order.createdAt,
    items: items.map((line) => ({
      productName: line.productName,
      size: sizeOfLine(line),
      quantity: line.quantity,
      price: toDollars(line.productPriceCents),
      total: toDollars(line.totalCents),
    })),
    subtotal: toDollars(order.subtotalCents),
    shipping: toDollars(order.shippingCents),
    tax: toDollars(order.taxCents),
    total: toDollars(order.totalCents),
    timeline: timelineOf(order, label?.createdAt ?? null),
    tracking: label ? trackingFor(label.carrier, label.trackingNumber) : null,
  };
}

/** GET /api/orders/{token}. */
export async function orderPageAnswer(ctx: AppContext, token: string): Promise<OrderPageAnswer> {
  return answerOf(await loadOrder(ctx, token));
}

/** The /orders/{token} page. */
export async function orderPageView(ctx: AppContext, token: string): Promise<OrderPageView> {
  const loaded = await loadOrder(ctx, token);
  const answer = answerOf(loaded);
  const { order, items } = loaded;
  return {
    ...answer,
    placedOn: formatStoreDate(order.createdAt),
    discount: toDollars(order.discountCents),
    refundAmount: toDollars(order.refundAmountCents),
    lines: items.map((line, index) => ({ ...answer.items[index]!, imageUrl: line.imageUrl })),
    shipTo: shipToOf(order),
    supportUrl: `/support?orderNumber=${encodeURIComponent(answer.orderNumber)}`,
  };
}

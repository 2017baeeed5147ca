import type { OrderStatus } from "#db/schema";
import { orderNumberOf } from "#server/contracts/checkout";
import { toDollars } from "#server/contracts/money";
import type { AppContext } from "#server/context";
import { NotFound } from "#server/errors";
import { methodDescriptionOf } from "#server/integrations/shipping";
import { sendOrderMail } from "./order-status-mail";
import { logError } from "#server/observability/log";

type OrderRow = Awaited<ReturnType<typeof orderRows>>[number];

function orderRows(ctx: AppContext, id?: number) {
  let query = ctx.db.selectFrom("orders").selectAll().orderBy("createdAt", "desc").orderBy("id", "desc");
  if (id !== undefined) query = query.where("id", "=", id);
  return query.execute();
}

function toAdminOrder(
  order: OrderRow,
  items: {
    orderId: number;
    id: number;
    productId: number | null;
    productName: string;
    productPriceCents: number;
    quantity: number;
    totalCents: number;
    size: string | null;
    color: string | null;
    createdAt: string;
  }[],
) {
  return {
    id: order.id,
    orderNumber: orderNumberOf(order),
    sessionId: order.sessionId,
    customerEmail: order.customerEmail,
    customerName: order.customerName,
    customerPhone: order.customerPhone,
    shippingAddress: order.shippingAddress,
    billingAddress: order.billingAddress,
    subtotal: toDollars(order.subtotalCents),
    discount: toDollars(order.discountCents),
    tax: toDollars(order.taxCents),
    shipping: toDollars(order.shippingCents),
    total: toDollars(order.totalCents),
    status: order.status,
    paymentIntentId: order.paymentIntentId,
    refundStatus: order.refundStatus,
    refundAmount: toDollars(order.refundAmountCents),
    refundedAt: order.refundedAt,
    shippingMethod: order.shippingMethod,
    paidAt: order.paidAt,
    /** Placed in test mode (a test card, no money): marked "Test" and left out of revenue. */
    test: order.isTest === 1,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    items: items
      .filter((i) => i.orderId === order.id)
      .map((i) => ({
        id: i.id,
        orderId: i.orderId,
        productId: i.productId,
        productName: i.productName,
        productPrice: toDollars(i.productPriceCents),
        quantity: i.quantity,
        total: toDollars(i.totalCents),
        /** The size and colour bought; null for a product without sizes / colours (decision 0045). */
        size: i.size,
        color: i.color,
        createdAt: i.createdAt,
      })),
  };
}
export type AdminOrder = ReturnType<typeof toAdminOrder>;

/** Every order, newest first, each with its items (docs/spec.md §3: "orders, each with items"). */
export async function listOrders(ctx: AppContext): Promise<AdminOrder[]> {
  const orders = await orderRows(ctx);
  const items = orders.length ? await ctx.db.selectFrom("orderItems").selectAll().orderBy("id").execute() : [];
  return orders.map((o) => toAdminOrder(o, items));
}

/** One order with its items, shipping labels and refunds: the View dialog. */
export async function getOrderDetail(ctx: AppContext, id: number) {
  const [order] = await orderRows(ctx, id);
  if (!order) throw new NotFound("Order not found.");
  const [items, labels, refunds] = await Promise.all([
    ctx.db.selectFrom("orderItems").selectAll().where("orderId", "=", id).orderBy("id").execute(),
    ctx.db.selectFrom("shippingLabels").selectAll().where("orderId", "=", id).orderBy("id").execute(),
    ctx.db.selectFrom("refunds").selectAll().where("orderId", "=", id).orderBy("createdAt", "desc").execute(),
  ]);
  return {
    ...toAdminOrder(order, items),
    /** The carrier and method as the checkout offered them ("USPS Priority Mail Express"), not the key. */
    shippingMethodLabel: order.shippingMethod ? methodDescriptionOf(order.shippingMethod) : null,
    // The crash-safety keys (0019) are the store's bookkeeping with its providers, not the admin's.
    shippingLabels: labels.map(({ idempotencyKey: _key, providerRef: _ref, ...l }) => ({ ...l, cost: toDollars(l.costCents) })),
    refunds: refunds.map(({ idempotencyKey: _key, ...r }) => ({
      ...r,
      amount: toDollars(r.amountCents),
      shippingRefunded: r.shippingRefunded === 1,
    })),
  };
}

/** When each status was reached, for the buyer's timeline: set once reached, cleared when the order goes back before it. */
const STEP_TIMES = { shipped: "shippedAt", delivered: "deliveredAt", cancelled: "cancelledAt" } as const;
const LATER_STEPS: Record<OrderStatus, (keyof typeof STEP_TIMES)[]> = {
  pending: ["shipped", "delivered", "cancelled"],
  processing: ["shipped", "delivered", "cancelled"],
  shipped: ["delivered", "cancelled"],
  delivered: ["cancelled"],
  cancelled: [],
};

/**
 * docs/spec.md §4: an admin may set any status on any order. Shipped, delivered and cancelled
 * each send the buyer their e-mail, once per order (order-status-mail.ts), after the change.
 */
export async function setOrderStatus(ctx: AppContext, id: number, status: OrderStatus): Promise<AdminOrder> {
  if (!(await moveOrderStatus(ctx, id, status, null))) throw new NotFound("Order not found.");
  const [order] = await orderRows(ctx, id);
  const items = await ctx.db.selectFrom("orderItems").selectAll().where("orderId", "=", id).execute();
  return toAdminOrder(order!, items);
}

/**
 * Moves an order to `status` (from one of `from` only, when given: one conditional update, so a
 * late or repeated move never takes an order back), records when it got there, and sends its
 * e-mail once per order. Returns whether the order moved.
 */
export async function moveOrderStatus(
  ctx: AppContext,
  id: number,
  status: OrderStatus,
  from: readonly OrderStatus[] | null,
): Promise<boolean> {
  const now = ctx.clock.now().toISOString();
  let update = ctx.db
    .updateTable("orders")
    .set((eb) => ({
      status,
      updatedAt: now,
      ...(status in STEP_TIMES
        ? {
            [STEP_TIMES[status as keyof typeof STEP_TIMES]]: eb.fn.coalesce(
              eb.ref(STEP_TIMES[status as keyof typeof STEP_TIMES]),
              eb.val(now),
            ),
          }
        : {}),
      ...Object.fromEntries(LATER_STEPS[status].map((step) => [STEP_TIMES[step], null])),
    }))
    .where("id", "=", id);
  if (from) update = update.where("status", "in", [...from]);
  const updated = await update.executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return false;
  if (status === "shipped" || status === "delivered" || status === "cancelled") {
    // The status is changed whatever becomes of the e-mail; the caller's answer does not fail for it.
    await sendOrderMail(ctx, id, status).catch((error: unknown) => logError(`Order ${id}: the ${status} e-mail failed`, error));
  }
  return true;
}

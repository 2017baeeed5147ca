import crypto from "node:crypto";
import type { Selectable } from "kysely";
import type { InventoryHoldsTable, OrderItemsTable } from "#db/schema";
import { CHECKOUT_MESSAGES, orderNumberOf, type CustomerInfo, type OrderSummary } from "#server/contracts/checkout";
import { toDollars } from "#server/contracts/money";
import type { AppContext } from "#server/context";
import { Conflict, DomainError, EmptyCart, Invalid } from "#server/errors";
import { paymentsFor } from "#server/integrations/payments";
import { parcelFor, shippingFor, type RateQuote } from "#server/integrations/shipping";
import { quoteTax } from "#server/integrations/tax";
import { discountedCents, publicFilter } from "#server/services/catalog/catalog";
import { addressKeyOf, assertWithinLimits, customerKeyOf, LimitReached } from "#server/services/drop/customer-limits";
import { meter, type OrderOutcome } from "#server/observability/meter";
import { expireOrder, releaseExpiredHolds } from "#server/services/cart/holds";
import { AddressRateLimiter } from "#server/services/security/rate-limit";
import { recordEvent } from "#server/services/reporting/events";
import { recordSoldOutMiss, SoldOut } from "#server/services/drop/sold-out-misses";
import { newOrderPageKey } from "#server/services/orders/order-page-token";
import { chargesNoCard } from "#server/config";
import { raiseAlert } from "#server/services/alerts/alerts";
import { drawWinsForBag, linkDrawOrder } from "#server/services/drop/draw-claims";
import {
  lineName,
  lockProductRows,
  NO_STOCK,
  stockOf,
  takeUnits,
  unitsLeft,
  unitStock,
  type ProductStock,
} from "#server/services/catalog/product-stock";
import { compiledOnce } from "#db/compiled-query";

// Generous: a drop-day crowd behind one carrier address must get through; a script must not.
const checkoutsPerIp = new AddressRateLimiter("checkouts-per-ip", (ctx) => ctx.config.rateLimits.checkoutsPerIp, 10 * 60 * 1000);

/** Test hook. */
export async function resetCheckoutLimits(ctx: AppContext): Promise<void> {
  await checkoutsPerIp.clear(ctx);
}

export interface PricedLine {
  productId: number;
  /** '' for a product without sizes / colours (decision 0045). */
  size: string;
  color: string;
  name: string;
  imageUrl: string | null;
  priceCents: number;
  unitCents: number;
  quantity: number;
  totalCents: number;
  /** Units of this size and colour on the shelf when the bag was read (not held: the hold's conditional update decides). */
  inventory: number;
  weight: number;
  length: number;
  width: number;
  height: number;
}

// Read by /checkout, the rates and Process Order, each for every shopper of a drop: kept compiled.
const bagRows = compiledOnce((db, $: { sessionId: string }) =>
  db
    .selectFrom("cartItems")
    .innerJoin("products", "products.id", "cartItems.productId")
    .select([
      "products.id",
      "products.name",
      "products.imageUrl",
      "products.priceCents",
      "products.discountPercent",
      "products.inventory",
      "products.isVisible",
      "products.isComingSoon",
      "products.isCountdownRestricted",
      "products.countdownReleaseDate",
      "products.weight",
      "products.length",
      "products.width",
      "products.height",
      "cartItems.quantity",
      "cartItems.size",
      "cartItems.color",
      "products.stockPerColor",
    ])
    .where("cartItems.sessionId", "=", $.sessionId)
    .orderBy("cartItems.id"),
);

/**
 * The bag's lines priced from the database alone (the client never sends a price that is
 * trusted); none when there is no bag. Refuses a line that cannot be bought right now.
 */
export async function bagLines(ctx: AppContext, sessionId: string | null): Promise<PricedLine[]> {
  if (!sessionId) return [];
  const rows = await bagRows.all(ctx.db, { sessionId });
  if (rows.length === 0) return [];
  const isPublic = await publicFilter(ctx);
  const sized = rows.filter((row) => row.size !== "" || row.stockPerColor === 1);
  const stock = sized.length > 0 ? await stockOf(ctx.db, sized) : new Map<number, ProductStock>();
  return rows.map((row) => {
    if (!isPublic(row) || row.isComingSoon === 1) throw new Conflict(CHECKOUT_MESSAGES.unavailable(row.name));
    const unitCents = discountedCents(row.priceCents, row.discountPercent);
    const plain = row.size === "" && row.stockPerColor !== 1;
    return {
      productId: row.id,
      size: row.size,
      color: row.color,
      name: row.name,
      imageUrl: row.imageUrl,
      priceCents: row.priceCents,
      unitCents,
      quantity: row.quantity,
      totalCents: unitCents * row.quantity,
      inventory: plain ? row.inventory : unitStock(row, stock.get(row.id) ?? NO_STOCK, row),
      weight: row.weight,
      length: row.length,
      width: row.width,
      height: row.height,
    };
  });
}

/** Short of stock: "Only 2 of Tee (Size M) left" or "Sorry, Tee (Size M) just sold out." (a sold-out miss). */
const shortOfStock = (line: PricedLine, inStock: number) => {
  const name = lineName(line.name, line);
  return inStock > 0 ? new ShortOfStock(CHECKOUT_MESSAGES.onlyLeft(name, inStock)) : new SoldOut(line.productId, name);
};

/** Fewer units on the shelf than the bag asks for (a 409, as any Conflict); the metrics count it with sold out. */
class ShortOfStock extends Conflict {
  override name = "Conflict";
}

/** The metrics' word for how a Process Order ended. */
function outcomeOf(error: unknown): OrderOutcome {
  if (error instanceof SoldOut || error instanceof ShortOfStock) return "sold_out";
  if (error instanceof LimitReached) return "limit";
  return error instanceof DomainError ? "refused" : "error";
}

/** The bag priced for checkout; an empty bag is refused with the spec's message. */
export async function priceCart(ctx: AppContext, sessionId: string | null) {
  const lines = await bagLines(ctx, sessionId);
  if (lines.length === 0) throw new EmptyCart(CHECKOUT_MESSAGES.emptyCart);
  const subtotalCents = lines.reduce((sum, l) => sum + l.totalCents, 0);
  const discountCents = lines.reduce((sum, l) => sum + (l.priceCents - l.unitCents) * l.quantity, 0);
  return { lines, subtotalCents, discountCents, parcel: parcelFor(lines) };
}

/** Rates for the bag to an address, cheapest first; empty when it cannot be shipped there. */
export async function quoteShipping(
  ctx: AppContext,
  sessionId: string | null,
  address: Pick<CustomerInfo, "street" | "city" | "state" | "zipCode" | "country">,
): Promise<RateQuote[]> {
  const { parcel } = await priceCart(ctx, sessionId);
  return shippingFor(ctx).quote(address, parcel);
}

/**
 * Process Order: re-prices the bag, quotes shipping again, adds tax, takes the units off the
 * shelf for the hold time (an atomic conditional update per product, all or nothing), creates
 * the pending order and the payment. Two buyers can never hold the same last unit.
 */
export async function processOrder(ctx: AppContext, input: OrderInput): Promise<PlacedOrder> {
  try {
    const placed = await placeOrder(ctx, input);
    meter().orderOutcome("placed");
    return placed;
  } catch (error) {
    meter().orderOutcome(outcomeOf(error));
    // Refused because something sold out: the drop report counts these (decision 0026).
    recordSoldOutMiss(ctx, error, { sessionId: input.sessionId, customerKey: customerKeyOf(input.customer.email) });
    throw error;
  }
}

type OrderInput = {
  sessionId: string | null;
  customer: CustomerInfo;
  shippingMethod: string;
  clientIp?: string;
  /** The store's address as the buyer reached it: the order's e-mails link there (without PUBLIC_URL). */
  siteOrigin?: string;
};
type PlacedOrder = { clientSecret: string; paymentIntentId: string; orderSummary: OrderSummary };

// Process Order's statements that keep one shape, run by every shopper of a drop: kept compiled.
const unpaidOrders = compiledOnce((db, $: { sessionId: string | null }) =>
  db.selectFrom("orders").select("id").where("sessionId", "=", $.sessionId).where("status", "=", "pending").where("paidAt", "is", null),
);
const stockLeft = compiledOnce((db, $: { productId: number }) =>
  db.selectFrom("products").select("inventory").where("id", "=", $.productId),
);
type HoldValues = Pick<Selectable<InventoryHoldsTable>, "orderId" | "productId" | "size" | "color" | "quantity" | "expiresAt">;
const insertHold = compiledOnce((db, $: HoldValues) =>
  db.insertInto("inventoryHolds").values({
    orderId: $.orderId,
    productId: $.productId,
    size: $.size,
    color: $.color,
    quantity: $.quantity,
    expiresAt: $.expiresAt,
  }),
);
type ItemValues = Omit<Selectable<OrderItemsTable>, "id" | "createdAt">;
const insertOrderItem = compiledOnce((db, $: ItemValues) =>
  db.insertInto("orderItems").values({
    orderId: $.orderId,
    productId: $.productId,
    productName: $.productName,
    productPriceCents: $.productPriceCents,
    quantity: $.quantity,
    totalCents: $.totalCents,
    size: $.size,
    color: $.color,
  }),
);

async function placeOrder(ctx: AppContext, input: OrderInput): Promise<PlacedOrder> {
  if (input.clientIp) {
    await checkoutsPerIp.take(
      ctx,
      input.clientIp,
      (m) => `Too many checkout attempts from your network. Please try again in ${m} minute${m === 1 ? "" : "s"}.`,
    );
  }
  const { lines, subtotalCents, discountCents, parcel } = await priceCart(ctx, input.sessionId);
  // A product sold by draw: only its winner's bag, one unit (decision 0047).
  const drawWins = await drawWinsForBag(ctx, input.sessionId, lines);
  const customer = input.customer;
  const rates = await shippingFor(ctx).quote(customer, parcel);
  if (rates.length === 0) throw new Invalid(CHECKOUT_MESSAGES.noRatesAtSubmit, { shippingMethod: [CHECKOUT_MESSAGES.noRatesAtSubmit] });
  const rate = rates.find((r) => r.key === input.shippingMethod);
  if (!rate) throw new Invalid(CHECKOUT_MESSAGES.methodGone, { shippingMethod: [CHECKOUT_MESSAGES.methodGone] });
  const tax = quoteTax({ country: customer.country, state: customer.state, lines, shippingCents: rate.costCents });
  const totalCents = subtotalCents + rate.costCents + tax.taxCents;

  // A buyer who presses Process Order again (say, after changing the address) starts over.
  const previous = await unpaidOrders.all(ctx.db, { sessionId: input.sessionId });
  for (const { id } of previous) await expireOrder(ctx, id);

  // Sold out as the bag was read (and nothing of this bag's own went back on the shelf since):
  // refused without taking the write lock, which every worker's buyers queue for. The conditional
  // update below stays the only judge of a hold; this only spares the crowd after the last unit.
  const short = previous.length === 0 ? lines.find((line) => line.inventory < line.quantity) : undefined;
  if (short && (await releaseExpiredHolds(ctx)) === 0) throw shortOfStock(short, short.inventory);

  const now = ctx.clock.now();
  const holdExpiresAt = new Date(now.getTime() + ctx.config.holdMinutes * 60_000).toISOString();
  const payments = paymentsFor(ctx);
  const customerKey = customerKeyOf(customer.email);
  const addressKey = addressKeyOf(customer);
  const productIds = lines.map((l) => l.productId);
  // The products this checkout took the last units of (a sold-out alert each, issue 27).
  let soldOut: string[] = [];
  const holdAndCreate = () =>
    ctx.db.transaction().execute(async (trx) => {
      soldOut = [];
      // Every product of the bag locked at once, in id order, before its stock or the limit is
      // touched: bags holding the same products in any order queue instead of deadlocking.
      await lockProductRows(trx, productIds);
      const order = await trx
        .insertInto("orders")
        .values({
          sessionId: input.sessionId,
          // The test processor, and Stripe with test keys, take test cards only: whatever they
          // "collect" is no money, so the order stays out of revenue.
          isTest: chargesNoCard(ctx.config) ? 1 : 0,
          customerEmail: customer.email,
          customerKey,
          addressKey,
          customerName: customer.name,
          customerPhone: customer.phone || null,
          shippingAddress: JSON.stringify({
            street: customer.street,
            city: customer.city,
            state: customer.state,
            zipCode: customer.zipCode,
            country: customer.country,
          }),
          subtotalCents,
          discountCents,
          taxCents: tax.taxCents,
          shippingCents: rate.costCents,
          totalCents,
          shippingMethod: rate.key,
          holdExpiresAt,
          // The buyer's own page (issue 25): its token is an HMAC of this order's random nonce.
          ...newOrderPageKey(ctx.config.sessionSecret),
          siteOrigin: input.siteOrigin ?? null,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      for (const line of lines) {
        // One conditional update of this size's (or colour's) shelf: never below zero.
        if (!(await takeUnits(trx, line.productId, line, line.quantity))) {
          throw shortOfStock(line, await unitsLeft(trx, line.productId, line));
        }
        // The product's stock is the sum of its shelves: at 0, the sold-out alert (issue 27).
        const left = await stockLeft.first(trx, { productId: line.productId });
        if (Number(left?.inventory ?? 0) === 0) soldOut.push(line.name);
        await insertHold.run(trx, {
          orderId: order.id,
          productId: line.productId,
          size: line.size,
          color: line.color,
          quantity: line.quantity,
          expiresAt: holdExpiresAt,
        });
        await insertOrderItem.run(trx, {
          orderId: order.id,
          productId: line.productId,
          productName: line.name,
          productPriceCents: line.unitCents,
          quantity: line.quantity,
          totalCents: line.totalCents,
          size: line.size === "" ? null : line.size,
          color: line.color === "" ? null : line.color,
        });
      }
      await linkDrawOrder(trx, drawWins, order.id);
      // In the same transaction as the holds: two racing orders of one customer queue here.
      await assertWithinLimits(trx, { customerKey, addressKey, productIds, now: now.toISOString() });
      return order.id;
    });

  let orderId: number;
  try {
    orderId = await holdAndCreate();
  } catch (error) {
    // Short of stock: holds that ran out go back on the shelf first, then one more try. Only
    // here, not before every checkout: releasing asks the payment provider about each expired
    // order, which no buyer should wait for while the shelf is full (the sweeper does it anyway).
    if (!(error instanceof Conflict) || (await releaseExpiredHolds(ctx)) === 0) throw error;
    orderId = await holdAndCreate();
  }
  for (const name of soldOut) {
    await raiseAlert(
      ctx,
      "sold-out",
      `${name} sold out: order ${orderId} holds its last unit (units come back if a hold runs out unpaid).`,
    );
  }

  let intent: { id: string; clientSecret: string };
  try {
    intent = await payments.createIntent({
      amountCents: totalCents,
      orderId,
      email: customer.email,
      idempotencyKey: `order-${orderId}-${crypto.createHash("sha256").update(String(totalCents)).digest("hex").slice(0, 8)}`,
    });
  } catch (error) {
    await expireOrder(ctx, orderId);
    throw error;
  }
  await ctx.db.updateTable("orders").set({ paymentIntentId: intent.id }).where("id", "=", orderId).execute();
  recordEvent(ctx, { kind: "order", sessionId: input.sessionId, orderId });

  return {
    clientSecret: intent.clientSecret,
    paymentIntentId: intent.id,
    orderSummary: {
      orderId,
      orderNumber: orderNumberOf({ id: orderId, paymentIntentId: intent.id }),
      items: lines.map((l) => ({
        productId: l.productId,
        size: l.size === "" ? null : l.size,
        color: l.color === "" ? null : l.color,
        name: l.name,
        unitPrice: toDollars(l.unitCents),
        quantity: l.quantity,
        total: toDollars(l.totalCents),
      })),
      subtotal: toDollars(subtotalCents),
      discount: toDollars(discountCents),
      shipping: toDollars(rate.costCents),
      tax: toDollars(tax.taxCents),
      taxRate: tax.taxRate,
      taxLabel: tax.taxLabel,
      total: toDollars(totalCents),
      holdExpiresAt,
    },
  };
}

/**
 * The order behind a payment with its items, only for the bag (browser) that placed it: the
 * no-JavaScript pay page. Null when there is no such order for this bag.
 */
export async function orderForPayment(ctx: AppContext, sessionId: string | null, paymentIntentId: string) {
  if (!sessionId) return null;
  const order = await ctx.db
    .selectFrom("orders")
    .select([
      "id",
      "paymentIntentId",
      "status",
      "paidAt",
      "holdExpiresAt",
      "customerEmail",
      "customerName",
      "customerPhone",
      "shippingAddress",
      "subtotalCents",
      "shippingCents",
      "taxCents",
      "totalCents",
    ])
    .where("paymentIntentId", "=", paymentIntentId)
    .where("sessionId", "=", sessionId)
    .executeTakeFirst();
  if (!order) return null;
  const items = await ctx.db
    .selectFrom("orderItems")
    .leftJoin("products", "products.id", "orderItems.productId")
    .select([
      "orderItems.productName",
      "orderItems.productPriceCents",
      "orderItems.quantity",
      "orderItems.totalCents",
      "orderItems.size",
      "orderItems.color",
      "products.imageUrl",
    ])
    .where("orderItems.orderId", "=", order.id)
    .orderBy("orderItems.id")
    .execute();
  return { ...order, items };
}

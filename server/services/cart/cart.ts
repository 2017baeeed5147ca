import { sql } from "kysely";
import { preparedOn } from "#db/client";
import { forUpdateOnPostgres, isPostgres } from "#db/engine";
import type { Product } from "#db/schema";
import { CART_MESSAGES, cartRowOf, EMPTY_CART, type CartLine, type CartPageView, type CartView } from "#server/contracts/cart";
import type { CheckoutBag } from "#server/contracts/checkout-page";
import type { AppContext } from "#server/context";
import { limitMessage } from "#server/contracts/limits";
import { toDollars } from "#server/contracts/money";
import { Conflict, NotFound } from "#server/errors";
import { discountedCents, getPublicProductRow, publicAt, publicFilter, toPublicProduct } from "#server/services/catalog/catalog";
import { settingDefaults } from "#server/services/store/settings";
import { recordEvent } from "#server/services/reporting/events";
import { refuseIfSoldByDraw } from "#server/services/drop/draws";

/**
 * The anonymous cart (docs/decisions/0004 for what it shows). Every change is one conditional
 * statement, so two tabs or two quick clicks can never put more units in a bag than the stock.
 */

type LineRow = Product & { lineId: number; quantity: number };

function whyUnavailable(row: LineRow): string | null {
  if (row.isComingSoon === 1) return CART_MESSAGES.lineComingSoon;
  if (row.inventory === 0) return CART_MESSAGES.soldOut;
  if (row.quantity > row.inventory) return CART_MESSAGES.onlyLeft(row.inventory);
  return null;
}

function toLine(row: LineRow): { line: CartLine; cents: number } {
  const product = toPublicProduct(row);
  const unitCents = discountedCents(row.priceCents, row.discountPercent);
  const notice = whyUnavailable(row);
  const line: CartLine = {
    id: row.lineId,
    productId: row.id,
    quantity: row.quantity,
    product: {
      name: product.name,
      price: product.price,
      discountedPrice: product.discountedPrice,
      imageUrl: product.imageUrl,
      srcSet: product.srcSet,
      discountPercent: product.discountPercent,
      availableColors: product.availableColors,
      isVisible: product.isVisible,
      isComingSoon: product.isComingSoon,
      releaseDate: product.releaseDate,
      inventory: product.inventory,
      description: product.description,
      promoCode: product.promoCode,
      maxPerCustomer: product.maxPerCustomer,
    },
    unitPrice: toDollars(unitCents),
    lineTotal: toDollars(unitCents * row.quantity),
    available: notice === null,
    notice,
  };
  return { line, cents: notice === null ? unitCents * row.quantity : 0 };
}

/**
 * The bag of one browser. Lines whose product is hidden or not yet released are left out (and
 * kept, so they come back if the product does): the shopper must not learn about it from here.
 */
export async function getCart(ctx: AppContext, sessionId: string | null): Promise<CartView> {
  if (!sessionId) return structuredClone(EMPTY_CART);
  const rows = await ctx.db
    .selectFrom("cartItems as c")
    .innerJoin("products as p", "p.id", "c.productId")
    .selectAll("p")
    .select(["c.id as lineId", "c.quantity"])
    .where("c.sessionId", "=", sessionId)
    .orderBy("c.createdAt", "asc")
    .orderBy("c.id", "asc")
    .execute();
  const isPublic = await publicFilter(ctx);
  const lines = rows.filter(isPublic).map(toLine);
  return {
    cartItems: lines.map(({ line }) => line),
    totalPrice: toDollars(lines.reduce((sum, { cents }) => sum + cents, 0)),
    count: lines.reduce((sum, { line }) => sum + line.quantity, 0),
  };
}

type BagLineRow = Pick<Product, "isVisible" | "isCountdownRestricted" | "countdownReleaseDate"> & { quantity: number };

/**
 * What the bag badge shows: the units `getCart` would list. On SQLite from one statement prepared
 * once and run synchronously (every cached page hit with a bag cookie asks, in whichever worker it
 * lands); on PostgreSQL, where no query is synchronous, the same read through Kysely, and a
 * promise the page cache's quick path already knows how to wait for. The store's launch date is
 * read only when a line waits for it.
 */
export function bagCount(ctx: AppContext, sessionId: string | null): number | Promise<number> {
  if (!sessionId) return 0;
  if (isPostgres(ctx.db)) return bagCountAsync(ctx, sessionId);
  const rows = preparedOn<BagLineRow>(
    ctx.db,
    `SELECT c.quantity, p.is_visible AS isVisible, p.is_countdown_restricted AS isCountdownRestricted,
       p.countdown_release_date AS countdownReleaseDate
     FROM cart_items c JOIN products p ON p.id = c.product_id WHERE c.session_id = ?`,
  ).all(sessionId);
  if (!rows.some((row) => row.isCountdownRestricted === 1)) return publicUnits(ctx, rows, "");
  const stored = preparedOn<{ value: string }>(ctx.db, `SELECT value FROM app_settings WHERE key = 'countdown_date'`).get();
  return publicUnits(ctx, rows, stored?.value ?? settingDefaults(ctx).countdown_date);
}

async function bagCountAsync(ctx: AppContext, sessionId: string): Promise<number> {
  const rows: BagLineRow[] = await ctx.db
    .selectFrom("cartItems as c")
    .innerJoin("products as p", "p.id", "c.productId")
    .select(["c.quantity", "p.isVisible", "p.isCountdownRestricted", "p.countdownReleaseDate"])
    .where("c.sessionId", "=", sessionId)
    .execute();
  if (!rows.some((row) => row.isCountdownRestricted === 1)) return publicUnits(ctx, rows, "");
  const stored = await ctx.db.selectFrom("appSettings").select("value").where("key", "=", "countdown_date").executeTakeFirst();
  return publicUnits(ctx, rows, stored?.value ?? settingDefaults(ctx).countdown_date);
}

function publicUnits(ctx: AppContext, rows: BagLineRow[], countdownDate: string): number {
  if (rows.length === 0) return 0;
  const isPublic = publicAt(ctx.clock.now().getTime(), countdownDate);
  return rows.reduce((sum, row) => (isPublic(row) ? sum + row.quantity : sum), 0);
}

/** The bag as /cart shows it: the same lines and totals as getCart, only what the rows show. */
export function cartPageOf(cart: CartView): CartPageView {
  return { rows: cart.cartItems.map(cartRowOf), totalPrice: cart.totalPrice, count: cart.count };
}

/**
 * The checkout page's bag, read for it: a bag with something in it counts a checkout view (the
 * funnel). `cart` is the request's one read of the bag (server/http/request-bag.ts).
 */
export function viewCheckout(ctx: AppContext, cart: CartView, sessionId: string | null): CheckoutBag {
  if (cart.cartItems.length > 0) recordEvent(ctx, { kind: "checkout_view", sessionId });
  return checkoutBagOf(cart);
}

export async function getCheckoutBag(ctx: AppContext, sessionId: string | null): Promise<CheckoutBag> {
  return viewCheckout(ctx, await getCart(ctx, sessionId), sessionId);
}

/** The bag as the checkout summarises it: the same lines and total as getCart, only what it shows. */
export function checkoutBagOf(cart: CartView): CheckoutBag {
  return {
    lines: cart.cartItems.map((line) => ({
      productId: line.productId,
      name: line.product.name,
      imageUrl: line.product.imageUrl,
      srcSet: line.product.srcSet,
      unitPrice: line.unitPrice,
      originalPrice: line.product.discountPercent > 0 ? line.product.price : null,
      quantity: line.quantity,
      total: line.lineTotal,
      notice: line.notice,
    })),
    subtotal: cart.totalPrice,
  };
}

/** Coming soon, sold out and the per-customer limit refuse new units, with the message the shopper sees. */
function assertPurchasable(product: Product, wanted: number): void {
  if (product.isComingSoon === 1) throw new Conflict(CART_MESSAGES.comingSoon);
  if (product.inventory === 0) throw new Conflict(CART_MESSAGES.soldOut);
  // One bag never holds more than one customer may buy; Process Order checks their other orders.
  if (product.maxPerCustomer !== null && wanted > product.maxPerCustomer) {
    const message = limitMessage(product.maxPerCustomer, product.name);
    throw new Conflict(message, { quantity: [message] });
  }
  if (wanted > product.inventory) {
    throw new Conflict(CART_MESSAGES.onlyLeft(product.inventory), { quantity: [CART_MESSAGES.onlyLeft(product.inventory)] });
  }
}

async function quantityInCart(ctx: AppContext, sessionId: string, productId: number): Promise<number> {
  const line = await ctx.db
    .selectFrom("cartItems")
    .select("quantity")
    .where("sessionId", "=", sessionId)
    .where("productId", "=", productId)
    .executeTakeFirst();
  return line?.quantity ?? 0;
}

/**
 * The most units of a product one bag may hold: its stock, or its per-customer limit when lower.
 * A CASE rather than SQLite's two-argument min() (PostgreSQL spells it least()), so that the same
 * SQL runs on both; a null limit compares as unknown and falls to the stock.
 */
const UNITS_CAP = sql<number>`CASE WHEN max_per_customer < inventory THEN max_per_customer ELSE inventory END`;

/**
 * Adds units of a product. `created` tells a new line from a bigger one (201 against 200).
 * Unknown, hidden and unreleased products are all "Product not found.".
 */
export async function addToCart(
  ctx: AppContext,
  sessionId: string,
  productId: number,
  quantity = 1,
): Promise<{ cart: CartView; created: boolean }> {
  const product = await getPublicProductRow(ctx, productId);
  // A product sold by draw reaches a bag only through a winner's link (draw-claims.ts).
  await refuseIfSoldByDraw(ctx, productId);
  assertPurchasable(product, quantity + (await quantityInCart(ctx, sessionId, productId)));
  const now = ctx.clock.now().toISOString();
  // One statement checks the stock and writes: concurrent adds queue on SQLite's write lock, and
  // each sees the quantity the previous one left.
  const { rows } = await sql<{ quantity: number }>`
    INSERT INTO cart_items (session_id, product_id, quantity, created_at, updated_at)
    SELECT ${sessionId}, id, ${quantity}, ${now}, ${now} FROM products
    WHERE id = ${productId} AND is_visible = 1 AND is_coming_soon = 0 AND inventory >= ${quantity}
      AND coalesce(max_per_customer, ${quantity}) >= ${quantity}
    ON CONFLICT (session_id, product_id) DO UPDATE
      SET quantity = cart_items.quantity + excluded.quantity, updated_at = excluded.updated_at
      WHERE cart_items.quantity + excluded.quantity <= (
        SELECT ${UNITS_CAP} FROM products WHERE id = excluded.product_id)
    RETURNING quantity`.execute(ctx.db);
  if (!rows[0]) {
    // Lost a race for the last units: explain with the state as it is now.
    assertPurchasable(await getPublicProductRow(ctx, productId), quantity + (await quantityInCart(ctx, sessionId, productId)));
    throw new Conflict(CART_MESSAGES.onlyLeft(product.inventory));
  }
  recordEvent(ctx, { kind: "bag_add", sessionId, productId });
  return { cart: await getCart(ctx, sessionId), created: rows[0].quantity === quantity };
}

/** Sets a line's quantity; below 1 removes it (docs/spec.md §4). Lowering is always allowed. */
export async function setQuantity(ctx: AppContext, sessionId: string, productId: number, quantity: number): Promise<CartView> {
  if (quantity < 1) return removeFromCart(ctx, sessionId, productId);
  const current = await quantityInCart(ctx, sessionId, productId);
  if (current === 0) throw new NotFound(CART_MESSAGES.notInCart);
  const product = await getPublicProductRow(ctx, productId);
  if (quantity > current) {
    await refuseIfSoldByDraw(ctx, productId);
    assertPurchasable(product, quantity);
  }
  const result = await ctx.db
    .updateTable("cartItems")
    .set({ quantity, updatedAt: ctx.clock.now().toISOString() })
    .where("sessionId", "=", sessionId)
    .where("productId", "=", productId)
    .where((eb) =>
      eb.or([
        eb("quantity", ">=", quantity),
        eb(eb.selectFrom("products").select(UNITS_CAP.as("cap")).where("id", "=", productId).where("isComingSoon", "=", 0), ">=", quantity),
      ]),
    )
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) {
    if ((await quantityInCart(ctx, sessionId, productId)) === 0) throw new NotFound(CART_MESSAGES.notInCart);
    assertPurchasable(await getPublicProductRow(ctx, productId), quantity);
  }
  return getCart(ctx, sessionId);
}

/** One more unit of a line already in the bag (the plus button). */
export async function incrementItem(ctx: AppContext, sessionId: string, productId: number): Promise<CartView> {
  if ((await quantityInCart(ctx, sessionId, productId)) === 0) throw new NotFound(CART_MESSAGES.notInCart);
  return (await addToCart(ctx, sessionId, productId, 1)).cart;
}

/** One unit fewer (the minus button); the last unit removes the line. Atomic, like the rest. */
export async function decrementItem(ctx: AppContext, sessionId: string, productId: number): Promise<CartView> {
  const changed = await ctx.db.transaction().execute(async (trx) => {
    // On PostgreSQL two presses at once would both miss "a line of one" and both lower it (to 0,
    // which the CHECK refuses): the line is locked first, so the second sees the first's result.
    await forUpdateOnPostgres(
      trx,
      trx.selectFrom("cartItems").select("quantity").where("sessionId", "=", sessionId).where("productId", "=", productId),
    ).execute();
    const removed = await trx
      .deleteFrom("cartItems")
      .where("sessionId", "=", sessionId)
      .where("productId", "=", productId)
      .where("quantity", "<=", 1)
      .executeTakeFirst();
    if (removed.numDeletedRows > 0n) return true;
    const lowered = await trx
      .updateTable("cartItems")
      .set((eb) => ({ quantity: eb("quantity", "-", 1), updatedAt: ctx.clock.now().toISOString() }))
      .where("sessionId", "=", sessionId)
      .where("productId", "=", productId)
      .executeTakeFirst();
    return lowered.numUpdatedRows > 0n;
  });
  if (!changed) throw new NotFound(CART_MESSAGES.notInCart);
  return getCart(ctx, sessionId);
}

export async function removeFromCart(ctx: AppContext, sessionId: string, productId: number): Promise<CartView> {
  const result = await ctx.db
    .deleteFrom("cartItems")
    .where("sessionId", "=", sessionId)
    .where("productId", "=", productId)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new NotFound(CART_MESSAGES.notInCart);
  return getCart(ctx, sessionId);
}

export async function clearCart(ctx: AppContext, sessionId: string | null): Promise<CartView> {
  if (sessionId) await ctx.db.deleteFrom("cartItems").where("sessionId", "=", sessionId).execute();
  return structuredClone(EMPTY_CART);
}

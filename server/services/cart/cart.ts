import { sql } from "kysely";
import { preparedOn } from "#db/client";
import { compiledOnce } from "#db/compiled-query";
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
import { SIZE_MESSAGES } from "#server/contracts/sizes-view";
import { Invalid } from "#server/errors";
import {
  NO_STOCK,
  resolveChoice,
  soldOutMessage,
  stockOf,
  stockOfOne,
  unitStock,
  type Choice,
  type ProductStock,
} from "#server/services/catalog/product-stock";
import { recordEvent } from "#server/services/reporting/events";
import { refuseIfSoldByDraw } from "#server/services/drop/draws";

/**
 * The anonymous cart (docs/decisions/0004 for what it shows). Every change is one conditional
 * statement, so two tabs or two quick clicks can never put more units in a bag than the stock.
 */

type LineRow = Product & { lineId: number; quantity: number; size: string; color: string };

/** A line of a product without sizes or stock per colour sells from the product's own stock, as before sizes. */
const ownShelf = (row: Pick<LineRow, "size" | "stockPerColor">) => row.size === "" && row.stockPerColor !== 1;

function whyUnavailable(row: LineRow, inStock: number, stock: ProductStock): string | null {
  if (row.isComingSoon === 1) return CART_MESSAGES.lineComingSoon;
  if (inStock === 0) return soldOutMessage(row.name, stock, row) ?? CART_MESSAGES.soldOut;
  if (row.quantity > inStock) return CART_MESSAGES.onlyLeft(inStock);
  return null;
}

function toLine(row: LineRow, stock: ProductStock = NO_STOCK): { line: CartLine; cents: number } {
  const product = toPublicProduct(row);
  const unitCents = discountedCents(row.priceCents, row.discountPercent);
  // A sized (or per-colour) line's stock is its size's (and colour's): what its plus button may reach.
  const inStock = ownShelf(row) ? row.inventory : unitStock(row, stock, row);
  const notice = whyUnavailable(row, inStock, stock);
  const line: CartLine = {
    id: row.lineId,
    productId: row.id,
    size: row.size === "" ? null : row.size,
    color: row.color === "" ? null : row.color,
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
      inventory: inStock,
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

const bagRows = compiledOnce((db, $: { sessionId: string }) =>
  db
    .selectFrom("cartItems as c")
    .innerJoin("products as p", "p.id", "c.productId")
    .selectAll("p")
    .select(["c.id as lineId", "c.quantity", "c.size", "c.color"])
    .where("c.sessionId", "=", $.sessionId)
    .orderBy("c.createdAt", "asc")
    .orderBy("c.id", "asc"),
);

/**
 * The bag of one browser. Lines whose product is hidden or not yet released are left out (and
 * kept, so they come back if the product does): the shopper must not learn about it from here.
 */
export async function getCart(ctx: AppContext, sessionId: string | null): Promise<CartView> {
  if (!sessionId) return structuredClone(EMPTY_CART);
  const rows = await bagRows.all(ctx.db, { sessionId });
  const isPublic = await publicFilter(ctx);
  const shown = rows.filter(isPublic);
  // Sizes are read only for a bag that has a sized or per-colour line: a plain bag costs what it did.
  const sized = shown.filter((row) => !ownShelf(row));
  const stock = sized.length > 0 ? await stockOf(ctx.db, sized) : new Map<number, ProductStock>();
  const lines = shown.map((row) => toLine(row, stock.get(row.id)));
  return {
    cartItems: lines.map(({ line }) => line),
    totalPrice: toDollars(lines.reduce((sum, { cents }) => sum + cents, 0)),
    count: lines.reduce((sum, { line }) => sum + line.quantity, 0),
  };
}

type BagLineRow = Pick<Product, "isVisible" | "isCountdownRestricted" | "countdownReleaseDate"> & { quantity: number };
/** A bag line as the SQLite read gives it: the store's launch setting beside it, null where none is stored. */
type BagLineWithLaunch = BagLineRow & { storeLaunch: string | null };

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
  // One statement: on drop day the bag holds a product that waits for the launch, whose date
  // comes with its line rather than from a second read (each statement has a cost of its own).
  const rows = preparedOn<BagLineWithLaunch>(
    ctx.db,
    `SELECT c.quantity, p.is_visible AS isVisible, p.is_countdown_restricted AS isCountdownRestricted,
       p.countdown_release_date AS countdownReleaseDate,
       CASE WHEN p.is_countdown_restricted = 1 THEN (SELECT value FROM app_settings WHERE key = 'countdown_date') END AS storeLaunch
     FROM cart_items c JOIN products p ON p.id = c.product_id WHERE c.session_id = ?`,
  ).all(sessionId);
  const waiting = rows.find((row) => row.isCountdownRestricted === 1);
  if (!waiting) return publicUnits(ctx, rows, "");
  return publicUnits(ctx, rows, waiting.storeLaunch ?? settingDefaults(ctx).countdown_date);
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
      size: line.size,
      color: line.color,
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

/** What a bag line is named by: the product, and its size and colour ('' for none). */
export interface LineName {
  size?: string | null;
  color?: string | null;
}

interface Wanted {
  /** Units of this line after the change. */
  line: number;
  /** Units of the product (every size and colour) in the bag after the change: the per-customer limit's count. */
  product: number;
}

/** Coming soon, sold out and the per-customer limit refuse new units, with the message the shopper sees. */
function assertPurchasable(product: Product, stock: ProductStock, choice: Choice, wanted: Wanted): void {
  if (product.isComingSoon === 1) throw new Conflict(CART_MESSAGES.comingSoon);
  const inStock = choice.size === "" && product.stockPerColor !== 1 ? product.inventory : unitStock(product, stock, choice);
  if (inStock === 0) throw new Conflict(soldOutMessage(product.name, stock, choice) ?? CART_MESSAGES.soldOut);
  // One bag never holds more than one customer may buy (over all sizes); Process Order checks their other orders.
  if (product.maxPerCustomer !== null && wanted.product > product.maxPerCustomer) {
    const message = limitMessage(product.maxPerCustomer, product.name);
    throw new Conflict(message, { quantity: [message] });
  }
  if (wanted.line > inStock) {
    throw new Conflict(CART_MESSAGES.onlyLeft(inStock), { quantity: [CART_MESSAGES.onlyLeft(inStock)] });
  }
}

/** Units of a product in a bag: of one line, and of every line of the product. */
const productLines = compiledOnce((db, $: { sessionId: string; productId: number }) =>
  db
    .selectFrom("cartItems")
    .select(["quantity", "size", "color"])
    .where("sessionId", "=", $.sessionId)
    .where("productId", "=", $.productId),
);

async function unitsInCart(
  ctx: AppContext,
  sessionId: string,
  productId: number,
  choice: Choice,
): Promise<{ line: number; product: number }> {
  const lines = await productLines.all(ctx.db, { sessionId, productId });
  const line = lines.find((l) => l.size === choice.size && l.color === choice.color)?.quantity ?? 0;
  return { line, product: lines.reduce((sum, l) => sum + l.quantity, 0) };
}

/**
 * The bag line a PATCH, DELETE or cart button names: by its size and colour (without regard to
 * case), or the product's only line when none is named. NotFound when there is no such line; a
 * 400 when the bag has several lines of the product and the call does not say which.
 */
async function findLine(ctx: AppContext, sessionId: string, productId: number, name: LineName): Promise<Choice & { quantity: number }> {
  const lines = await ctx.db
    .selectFrom("cartItems")
    .select(["quantity", "size", "color"])
    .where("sessionId", "=", sessionId)
    .where("productId", "=", productId)
    .orderBy("id")
    .execute();
  const size = name.size?.trim().toLowerCase();
  const color = name.color?.trim().toLowerCase();
  const matching = lines.filter(
    (l) =>
      (size === undefined || size === "" || l.size.toLowerCase() === size || (size === "one size" && l.size === "")) &&
      (color === undefined || color === "" || l.color.toLowerCase() === color),
  );
  if (matching.length === 0) throw new NotFound(CART_MESSAGES.notInCart);
  if (matching.length > 1) throw new Invalid(SIZE_MESSAGES.nameTheLine, { size: [SIZE_MESSAGES.nameTheLine] });
  return matching[0]!;
}

/**
 * The most units of a product one bag line may hold: its stock, or its per-customer limit when
 * lower. A CASE rather than SQLite's two-argument min() (PostgreSQL spells it least()), so that the same
 * SQL runs on both; a null limit compares as unknown and falls to the stock.
 */
const UNITS_CAP = sql<number>`CASE WHEN max_per_customer < inventory THEN max_per_customer ELSE inventory END`;

/**
 * The stock a line sells from, as SQL: the product's `inventory` for a line of a product without
 * sizes or stock per colour (the statement is then the one it always was), else its size's or
 * its colour-and-size's row.
 */
function shelfSql(product: Product, stock: ProductStock, choice: Choice) {
  if (stock.variants) {
    return sql<number>`(SELECT inventory FROM product_variants WHERE product_id = ${product.id} AND size = ${choice.size} AND color = ${choice.color})`;
  }
  if (choice.size !== "")
    return sql<number>`(SELECT inventory FROM product_sizes WHERE product_id = ${product.id} AND label = ${choice.size})`;
  return null;
}

/**
 * Adds units of a product in a size and colour (`size` needed when the product has sizes; a
 * product's first colour in stock when none is named). `created` tells a new line from a bigger
 * one (201 against 200). Unknown, hidden and unreleased products are all "Product not found.".
 */
export async function addToCart(
  ctx: AppContext,
  sessionId: string,
  productId: number,
  quantity = 1,
  name: LineName = {},
): Promise<{ cart: CartView; created: boolean }> {
  const product = await getPublicProductRow(ctx, productId);
  // A product sold by draw reaches a bag only through a winner's link (draw-claims.ts).
  await refuseIfSoldByDraw(ctx, productId);
  const stock = await stockOfOne(ctx.db, product);
  const choice = resolveChoice(product, stock, name);
  const inBag = await unitsInCart(ctx, sessionId, productId, choice);
  assertPurchasable(product, stock, choice, { line: quantity + inBag.line, product: quantity + inBag.product });
  const now = ctx.clock.now().toISOString();
  const shelf = shelfSql(product, stock, choice);
  // Units of this product in the bag on other lines (other sizes or colours): the limit counts them.
  const others = sql<number>`(SELECT coalesce(sum(quantity), 0) FROM cart_items
    WHERE session_id = ${sessionId} AND product_id = ${productId} AND NOT (size = ${choice.size} AND color = ${choice.color}))`;
  // One statement checks the stock and writes: concurrent adds queue on SQLite's write lock, and
  // each sees the quantity the previous one left.
  const { rows } = shelf
    ? await sql<{ quantity: number }>`
    INSERT INTO cart_items (session_id, product_id, size, color, quantity, created_at, updated_at)
    SELECT ${sessionId}, id, ${choice.size}, ${choice.color}, ${quantity}, ${now}, ${now} FROM products
    WHERE id = ${productId} AND is_visible = 1 AND is_coming_soon = 0 AND ${shelf} >= ${quantity}
      AND (max_per_customer IS NULL OR max_per_customer >= ${quantity} + ${others})
    ON CONFLICT (session_id, product_id, size, color) DO UPDATE
      SET quantity = cart_items.quantity + excluded.quantity, updated_at = excluded.updated_at
      WHERE cart_items.quantity + excluded.quantity <= ${shelf}
        AND (SELECT coalesce(max_per_customer, cart_items.quantity + excluded.quantity + ${others}) FROM products WHERE id = excluded.product_id)
          >= cart_items.quantity + excluded.quantity + ${others}
    RETURNING quantity`.execute(ctx.db)
    : await sql<{ quantity: number }>`
    INSERT INTO cart_items (session_id, product_id, size, color, quantity, created_at, updated_at)
    SELECT ${sessionId}, id, '', ${choice.color}, ${quantity}, ${now}, ${now} FROM products
    WHERE id = ${productId} AND is_visible = 1 AND is_coming_soon = 0 AND inventory >= ${quantity}
      AND coalesce(max_per_customer, ${quantity} + ${others}) >= ${quantity} + ${others}
    ON CONFLICT (session_id, product_id, size, color) DO UPDATE
      SET quantity = cart_items.quantity + excluded.quantity, updated_at = excluded.updated_at
      WHERE cart_items.quantity + excluded.quantity <= (
        SELECT ${UNITS_CAP} FROM products WHERE id = excluded.product_id)
        AND (SELECT coalesce(max_per_customer, cart_items.quantity + excluded.quantity + ${others}) FROM products WHERE id = excluded.product_id)
          >= cart_items.quantity + excluded.quantity + ${others}
    RETURNING quantity`.execute(ctx.db);
  if (!rows[0]) {
    // Lost a race for the last units: explain with the state as it is now.
    const fresh = await getPublicProductRow(ctx, productId);
    const now = await unitsInCart(ctx, sessionId, productId, choice);
    const freshStock = await stockOfOne(ctx.db, fresh);
    assertPurchasable(fresh, freshStock, choice, { line: quantity + now.line, product: quantity + now.product });
    throw new Conflict(CART_MESSAGES.onlyLeft(unitStock(fresh, freshStock, choice)));
  }
  recordEvent(ctx, { kind: "bag_add", sessionId, productId });
  return { cart: await getCart(ctx, sessionId), created: rows[0].quantity === quantity };
}

/** Sets a line's quantity; below 1 removes it (docs/spec.md §4). Lowering is always allowed. */
export async function setQuantity(
  ctx: AppContext,
  sessionId: string,
  productId: number,
  quantity: number,
  name: LineName = {},
): Promise<CartView> {
  if (quantity < 1) return removeFromCart(ctx, sessionId, productId, name);
  const line = await findLine(ctx, sessionId, productId, name);
  const product = await getPublicProductRow(ctx, productId);
  const stock = await stockOfOne(ctx.db, product);
  const inBag = await unitsInCart(ctx, sessionId, productId, line);
  if (quantity > line.quantity) {
    await refuseIfSoldByDraw(ctx, productId);
    assertPurchasable(product, stock, line, { line: quantity, product: inBag.product - line.quantity + quantity });
  }
  const shelf = shelfSql(product, stock, line);
  const others = inBag.product - line.quantity;
  const result = await ctx.db
    .updateTable("cartItems")
    .set({ quantity, updatedAt: ctx.clock.now().toISOString() })
    .where("sessionId", "=", sessionId)
    .where("productId", "=", productId)
    .where("size", "=", line.size)
    .where("color", "=", line.color)
    .where((eb) =>
      eb.or([
        eb("quantity", ">=", quantity),
        shelf
          ? eb.and([
              eb(shelf, ">=", quantity),
              eb(
                eb
                  .selectFrom("products")
                  .select(sql<number>`coalesce(max_per_customer, ${quantity + others})`.as("cap"))
                  .where("id", "=", productId)
                  .where("isComingSoon", "=", 0),
                ">=",
                quantity + others,
              ),
            ])
          : eb(
              eb.selectFrom("products").select(UNITS_CAP.as("cap")).where("id", "=", productId).where("isComingSoon", "=", 0),
              ">=",
              quantity + others,
            ),
      ]),
    )
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) {
    const now = await unitsInCart(ctx, sessionId, productId, line);
    if (now.line === 0) throw new NotFound(CART_MESSAGES.notInCart);
    const fresh = await getPublicProductRow(ctx, productId);
    assertPurchasable(fresh, await stockOfOne(ctx.db, fresh), line, { line: quantity, product: now.product - now.line + quantity });
  }
  return getCart(ctx, sessionId);
}

/** One more unit of a line already in the bag (the plus button). */
export async function incrementItem(ctx: AppContext, sessionId: string, productId: number, name: LineName = {}): Promise<CartView> {
  const line = await findLine(ctx, sessionId, productId, name);
  return (await addToCart(ctx, sessionId, productId, 1, { size: line.size, color: line.color })).cart;
}

/** One unit fewer (the minus button); the last unit removes the line. Atomic, like the rest. */
export async function decrementItem(ctx: AppContext, sessionId: string, productId: number, name: LineName = {}): Promise<CartView> {
  const line = await findLine(ctx, sessionId, productId, name);
  const changed = await ctx.db.transaction().execute(async (trx) => {
    // On PostgreSQL two presses at once would both miss "a line of one" and both lower it (to 0,
    // which the CHECK refuses): the line is locked first, so the second sees the first's result.
    await forUpdateOnPostgres(
      trx,
      trx
        .selectFrom("cartItems")
        .select("quantity")
        .where("sessionId", "=", sessionId)
        .where("productId", "=", productId)
        .where("size", "=", line.size)
        .where("color", "=", line.color),
    ).execute();
    const removed = await trx
      .deleteFrom("cartItems")
      .where("sessionId", "=", sessionId)
      .where("productId", "=", productId)
      .where("size", "=", line.size)
      .where("color", "=", line.color)
      .where("quantity", "<=", 1)
      .executeTakeFirst();
    if (removed.numDeletedRows > 0n) return true;
    const lowered = await trx
      .updateTable("cartItems")
      .set((eb) => ({ quantity: eb("quantity", "-", 1), updatedAt: ctx.clock.now().toISOString() }))
      .where("sessionId", "=", sessionId)
      .where("productId", "=", productId)
      .where("size", "=", line.size)
      .where("color", "=", line.color)
      .executeTakeFirst();
    return lowered.numUpdatedRows > 0n;
  });
  if (!changed) throw new NotFound(CART_MESSAGES.notInCart);
  return getCart(ctx, sessionId);
}

export async function removeFromCart(ctx: AppContext, sessionId: string, productId: number, name: LineName = {}): Promise<CartView> {
  const line = await findLine(ctx, sessionId, productId, name);
  const result = await ctx.db
    .deleteFrom("cartItems")
    .where("sessionId", "=", sessionId)
    .where("productId", "=", productId)
    .where("size", "=", line.size)
    .where("color", "=", line.color)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new NotFound(CART_MESSAGES.notInCart);
  return getCart(ctx, sessionId);
}

export async function clearCart(ctx: AppContext, sessionId: string | null): Promise<CartView> {
  if (sessionId) await ctx.db.deleteFrom("cartItems").where("sessionId", "=", sessionId).execute();
  return structuredClone(EMPTY_CART);
}

import type { DropFunnel, DropMinute, DropProductLine, DropReport, DropVariantLine } from "#server/contracts/drops";
import { INCLUDE_TEST_MESSAGE, parseIncludeTest } from "#server/contracts/reports";
import { toDollars } from "#server/contracts/money";
import type { AppContext } from "#server/context";
import { customerKeyOf } from "#server/services/drop/customer-limits";
import { Invalid } from "#server/errors";
import { dropById, type Drop } from "#server/services/drop/drops";
import { flushSoldOutMisses } from "#server/services/drop/sold-out-misses";

/**
 * The drop report (issue 14 part 2, decision 0026): how a drop sold, from the rows the store keeps
 * (orders and their items, the waiting room's places, early-access links, sold-out misses,
 * refunds) and the peak the waiting room recorded. Nothing here writes, apart from the current
 * drop's row on first need.
 */

const MINUTE = 60_000;
const FIRST_HOUR_MINUTES = 60;

interface SoldLine {
  orderId: number;
  createdAt: string;
  customerKey: string | null;
  productId: number | null;
  productName: string;
  size: string | null;
  color: string | null;
  quantity: number;
  totalCents: number;
}

interface VariantTally {
  size: string | null;
  color: string | null;
  units: number;
  cents: number;
}

interface ProductTally {
  productId: number | null;
  name: string;
  units: number;
  cents: number;
  last: string;
  variants: Map<string, VariantTally>;
}

/** Stock now per product: its sizes (label key → stock and position) and its colour grid, if any. */
interface VariantShelf {
  sizes: Map<number, Map<string, { inventory: number; position: number }>>;
  grid: Map<number, Map<string, number>>;
  perColor: Set<number>;
}

const gridKey = (size: string, color: string) => JSON.stringify([size.toLowerCase(), color]);

async function variantStock(ctx: AppContext, ids: number[]): Promise<VariantShelf> {
  const shelf: VariantShelf = { sizes: new Map(), grid: new Map(), perColor: new Set() };
  if (ids.length === 0) return shelf;
  const [sizes, variants, perColor] = await Promise.all([
    ctx.db.selectFrom("productSizes").select(["productId", "labelKey", "position", "inventory"]).where("productId", "in", ids).execute(),
    ctx.db.selectFrom("productVariants").select(["productId", "size", "color", "inventory"]).where("productId", "in", ids).execute(),
    ctx.db.selectFrom("products").select("id").where("id", "in", ids).where("stockPerColor", "=", 1).execute(),
  ]);
  for (const s of sizes) {
    const map = shelf.sizes.get(s.productId) ?? new Map();
    map.set(s.labelKey, { inventory: s.inventory, position: s.position });
    shelf.sizes.set(s.productId, map);
  }
  for (const v of variants) {
    const map = shelf.grid.get(v.productId) ?? new Map();
    map.set(gridKey(v.size, v.color), v.inventory);
    shelf.grid.set(v.productId, map);
  }
  for (const p of perColor) shelf.perColor.add(p.id);
  return shelf;
}

/** A product's sold variants, in its size order (sizes it no longer has last), then by colour. */
function variantLines(product: ProductTally, productLeft: number, shelf: VariantShelf): DropVariantLine[] {
  const id = product.productId;
  const sizes = id === null ? undefined : shelf.sizes.get(id);
  const leftOf = (size: string | null, color: string | null): number => {
    if (id === null) return 0;
    if (shelf.perColor.has(id) && color !== null) return shelf.grid.get(id)?.get(gridKey(size ?? "", color)) ?? 0;
    if (size !== null) return sizes?.get(size.toLowerCase())?.inventory ?? 0;
    return productLeft;
  };
  const position = (size: string | null) => (size === null ? -1 : (sizes?.get(size.toLowerCase())?.position ?? Number.MAX_SAFE_INTEGER));
  return [...product.variants.values()]
    .sort(
      (a, b) =>
        position(a.size) - position(b.size) || (a.size ?? "").localeCompare(b.size ?? "") || (a.color ?? "").localeCompare(b.color ?? ""),
    )
    .map((v) => ({ size: v.size, color: v.color, units: v.units, revenue: toDollars(v.cents), left: leftOf(v.size, v.color) }));
}

/** Paid orders placed in the window, one row per item. Test orders only when asked for. */
async function soldLines(ctx: AppContext, from: string, to: string, includeTest: boolean): Promise<SoldLine[]> {
  let query = ctx.db
    .selectFrom("orders")
    .innerJoin("orderItems", "orderItems.orderId", "orders.id")
    .select([
      "orders.id as orderId",
      "orders.createdAt",
      "orders.customerKey",
      "orderItems.productId",
      "orderItems.productName",
      "orderItems.size",
      "orderItems.color",
      "orderItems.quantity",
      "orderItems.totalCents",
    ])
    .where("orders.createdAt", ">=", from)
    .where("orders.createdAt", "<", to)
    .where("orders.paidAt", "is not", null);
  if (!includeTest) query = query.where("orders.isTest", "=", 0);
  return query.orderBy("orders.createdAt").execute();
}

/** Per product: units, revenue and, for one sold out (nothing on the shelf, nothing held), when its last unit went. */
async function productLines(ctx: AppContext, drop: Drop, lines: SoldLine[]): Promise<DropProductLine[]> {
  const t0 = Date.parse(drop.countdownAt);
  const byProduct = new Map<string, ProductTally>();
  for (const line of lines) {
    const key = line.productId === null ? `name:${line.productName}` : `id:${line.productId}`;
    const entry = byProduct.get(key) ?? {
      productId: line.productId,
      name: line.productName,
      units: 0,
      cents: 0,
      last: line.createdAt,
      variants: new Map(),
    };
    entry.units += line.quantity;
    entry.cents += line.totalCents;
    if (line.createdAt > entry.last) entry.last = line.createdAt;
    if (line.size !== null || line.color !== null) {
      const variantKey = JSON.stringify([line.size, line.color]);
      const variant = entry.variants.get(variantKey) ?? { size: line.size, color: line.color, units: 0, cents: 0 };
      variant.units += line.quantity;
      variant.cents += line.totalCents;
      entry.variants.set(variantKey, variant);
    }
    byProduct.set(key, entry);
  }
  // The drop's own products show even when nothing sold: restricted to exactly this T-0.
  const own = await ctx.db
    .selectFrom("products")
    .select(["id", "name"])
    .where("isCountdownRestricted", "=", 1)
    .where("countdownReleaseDate", "=", drop.countdownAt)
    .execute();
  for (const product of own) {
    if (!byProduct.has(`id:${product.id}`))
      byProduct.set(`id:${product.id}`, { productId: product.id, name: product.name, units: 0, cents: 0, last: "", variants: new Map() });
  }
  const ids = [...byProduct.values()].flatMap((p) => (p.productId === null ? [] : [p.productId]));
  const shelf = new Map<number, { inventory: number; held: number }>();
  if (ids.length > 0) {
    const products = await ctx.db.selectFrom("products").select(["id", "inventory"]).where("id", "in", ids).execute();
    for (const p of products) shelf.set(p.id, { inventory: p.inventory, held: 0 });
    const holds = await ctx.db
      .selectFrom("inventoryHolds")
      .select(["productId", (eb) => eb.fn.sum<number>("quantity").as("held")])
      .where("productId", "in", ids)
      .where("status", "=", "held")
      .groupBy("productId")
      .execute();
    for (const h of holds) {
      const entry = shelf.get(h.productId);
      if (entry) entry.held = Number(h.held);
    }
  }
  const variantShelf = await variantStock(ctx, ids);
  return [...byProduct.values()]
    .map((p) => {
      const now = p.productId === null ? undefined : shelf.get(p.productId);
      const soldOut = now !== undefined && now.inventory === 0 && now.held === 0 && p.units > 0;
      return {
        productId: p.productId,
        name: p.name,
        units: p.units,
        revenue: toDollars(p.cents),
        left: now?.inventory ?? 0,
        soldOutAt: soldOut ? p.last : null,
        sellOutSeconds: soldOut ? Math.round((Date.parse(p.last) - t0) / 1000) : null,
        variants: variantLines(p, now?.inventory ?? 0, variantShelf),
      };
    })
    .sort((a, b) => b.units - a.units || a.name.localeCompare(b.name));
}

function firstHour(drop: Drop, lines: SoldLine[]): { minutes: DropMinute[]; beforeT0: { units: number; revenue: number } } {
  const t0 = Date.parse(drop.countdownAt);
  const cents = Array.from({ length: FIRST_HOUR_MINUTES }, () => 0);
  const units = Array.from({ length: FIRST_HOUR_MINUTES }, () => 0);
  let beforeUnits = 0;
  let beforeCents = 0;
  for (const line of lines) {
    const offset = Date.parse(line.createdAt) - t0;
    if (offset < 0) {
      beforeUnits += line.quantity;
      beforeCents += line.totalCents;
      continue;
    }
    const minute = Math.floor(offset / MINUTE);
    if (minute >= FIRST_HOUR_MINUTES) continue;
    units[minute]! += line.quantity;
    cents[minute]! += line.totalCents;
  }
  return {
    minutes: units.map((u, minute) => ({ minute, units: u, revenue: toDollars(cents[minute]!) })),
    beforeT0: { units: beforeUnits, revenue: toDollars(beforeCents) },
  };
}

/** The nearest-rank percentile (p in 0..1) of sorted values, or null when there are none. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

/**
 * The waiting room of the drop, from its places: joined, admitted (came back and took their turn),
 * their waits (from T-0 or their arrival, whichever is later, as the live page counts them), and
 * those who never took their turn. The peak is the larger of the whole early group (everyone who
 * joined before T-0 waited at T-0) and the longest line a join after T-0 recorded.
 */
async function waitingRoomOf(ctx: AppContext, drop: Drop): Promise<DropReport["waitingRoom"]> {
  const t0 = Date.parse(drop.countdownAt);
  const places = await ctx.db
    .selectFrom("waitingRoomPlaces")
    .select(["joinedAt", "admittedAt"])
    .where("dropAt", "=", drop.countdownAt)
    .execute();
  const early = places.filter((p) => Date.parse(p.joinedAt) < t0).length;
  const waits = places
    .filter((p) => p.admittedAt !== null)
    .map((p) => Math.max(0, (Date.parse(p.admittedAt!) - Math.max(Date.parse(p.joinedAt), t0)) / 1000))
    .sort((a, b) => a - b);
  const admitted = waits.length;
  const recordedWins = drop.linePeak > early;
  const peakLength = Math.max(drop.linePeak, early);
  const round = (value: number | null) => (value === null ? null : Math.round(value));
  return {
    joined: places.length,
    peakLength,
    peakAt: peakLength === 0 ? null : recordedWins ? drop.linePeakAt : drop.countdownAt,
    admitted,
    waitP50Seconds: round(percentile(waits, 0.5)),
    waitP95Seconds: round(percentile(waits, 0.95)),
    leftLine: places.length - admitted,
  };
}

/**
 * Early-access links made for this drop (after the previous drop's T-0, up to this one's), how many
 * were opened, and how many of those were followed by a paid order in the window from the link's
 * e-mail (the order's customer key), placed after the link was opened.
 */
async function earlyAccessOf(ctx: AppContext, drop: Drop, previous: string | null, lines: SoldLine[]): Promise<DropReport["earlyAccess"]> {
  let query = ctx.db.selectFrom("earlyAccessLinks").select(["email", "openedAt"]).where("createdAt", "<=", drop.countdownAt);
  if (previous !== null) query = query.where("createdAt", ">", previous);
  const links = await query.execute();
  const lastOrder = new Map<string, string>();
  for (const line of lines) {
    if (!line.customerKey) continue;
    const seen = lastOrder.get(line.customerKey);
    if (!seen || line.createdAt > seen) lastOrder.set(line.customerKey, line.createdAt);
  }
  const used = links.filter((l) => l.openedAt !== null);
  const converted = used.filter((l) => {
    const last = lastOrder.get(customerKeyOf(l.email));
    return last !== undefined && last >= l.openedAt!;
  });
  return { sent: links.length, used: used.length, converted: converted.length };
}

/**
 * Counted by the database, not read into memory: a stranger can add a row per refused Process
 * Order (within the checkout rate limit), so a drop's misses are as many as bots make them, and
 * the admin's report must not grow with them. A miss with neither bag nor e-mail is a shopper of its own.
 */
async function missesOf(ctx: AppContext, from: string, to: string): Promise<DropReport["soldOutMisses"]> {
  // This process's queued misses first; another worker's reach the table within a second.
  await flushSoldOutMisses(ctx);
  const inWindow = ctx.db.selectFrom("soldOutMisses").where("createdAt", ">=", from).where("createdAt", "<", to);
  const [totals, byProduct] = await Promise.all([
    inWindow
      .select(({ fn }) => [
        fn.countAll<number>().as("attempts"),
        fn.count<number>(fn.coalesce("sessionId", "customerKey")).as("known"),
        fn.count<number>(fn.coalesce("sessionId", "customerKey")).distinct().as("knownShoppers"),
      ])
      .executeTakeFirstOrThrow(),
    inWindow
      .select(({ fn }) => ["productName", fn.countAll<number>().as("attempts")])
      .groupBy("productName")
      .execute(),
  ]);
  const attempts = Number(totals.attempts);
  return {
    attempts,
    shoppers: Number(totals.knownShoppers) + attempts - Number(totals.known),
    products: byProduct
      .map((row) => ({ name: row.productName, attempts: Number(row.attempts) }))
      .sort((a, b) => b.attempts - a.attempts || a.name.localeCompare(b.name)),
  };
}

/** Refunds made since T-0 on the drop's orders (the same orders the report counts). */
async function refundsOf(ctx: AppContext, drop: Drop, lines: SoldLine[]): Promise<DropReport["refunds"]> {
  const orderIds = [...new Set(lines.map((l) => l.orderId))];
  if (orderIds.length === 0) return { count: 0, amount: 0 };
  const row = await ctx.db
    .selectFrom("refunds")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.coalesce(eb.fn.sum<number>("amountCents"), eb.lit(0)).as("cents")])
    .where("orderId", "in", orderIds)
    .where("createdAt", ">=", drop.countdownAt)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), amount: toDollars(Number(row.cents)) };
}

export type FunnelSource = (ctx: AppContext, range: { from: Date; to: Date; includeTest: boolean }) => Promise<DropFunnel | null>;

/** Until the events table exists there is no funnel to show. */
const noFunnel: FunnelSource = async () => null;

/** GET /api/admin/drops/:id, tRPC admin.drops.report and /admin/drops/:id. */
export async function dropReport(
  ctx: AppContext,
  id: number,
  options: { includeTest?: boolean } = {},
  funnel: FunnelSource = noFunnel,
): Promise<DropReport> {
  const includeTest = options.includeTest === true;
  const drop = await dropById(ctx, id);
  const lines = await soldLines(ctx, drop.from, drop.to, includeTest);
  const t0 = Date.parse(drop.countdownAt);
  const now = ctx.clock.now().getTime();
  const [products, waitingRoom, earlyAccess, soldOutMisses, refunds, funnelFigures] = await Promise.all([
    productLines(ctx, drop, lines),
    waitingRoomOf(ctx, drop),
    earlyAccessOf(ctx, drop, drop.previous, lines),
    missesOf(ctx, drop.from, drop.to),
    refundsOf(ctx, drop, lines),
    now < t0 ? Promise.resolve(null) : funnel(ctx, { from: new Date(t0), to: new Date(t0 + FIRST_HOUR_MINUTES * MINUTE), includeTest }),
  ]);
  return {
    id: drop.id,
    countdownAt: drop.countdownAt,
    from: drop.from,
    to: drop.to,
    state: now < t0 ? "upcoming" : now < Date.parse(drop.to) ? "live" : "past",
    includeTest,
    totals: {
      orders: new Set(lines.map((l) => l.orderId)).size,
      units: lines.reduce((sum, l) => sum + l.quantity, 0),
      revenue: toDollars(lines.reduce((sum, l) => sum + l.totalCents, 0)),
    },
    products,
    ...firstHour(drop, lines),
    funnel: funnelFigures,
    waitingRoom,
    earlyAccess,
    soldOutMisses,
    refunds,
  };
}

/** The `includeTest` query value: absent, 0/false or 1/true; anything else is refused. */
export function includeTestFrom(value: string | null): boolean {
  const includeTest = parseIncludeTest(value);
  // The same rule and words as the reports' summary (one parameter, one answer).
  if (includeTest === null) throw new Invalid(INCLUDE_TEST_MESSAGE, { includeTest: [INCLUDE_TEST_MESSAGE] });
  return includeTest;
}

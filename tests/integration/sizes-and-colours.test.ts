// Issue 23 (decision 0045): sizes and colours, through the REST doors a shopper's browser and an
// external caller use, down to the rows: stock per size (and per colour and size), the messages
// of the issue, holds and orders per size, the limit across sizes, and two processes racing for
// the last unit of one size and of one colour-and-size.
import { spawn } from "node:child_process";
import { beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { useAppContextForTests } from "#server/boot";
import type { AdminProduct } from "#server/contracts/admin-products";
import type { CartView } from "#server/contracts/cart";
import type { PublicProduct } from "#server/contracts/catalog";
import { ensureAdmin } from "#server/services/accounts/users";
import { releaseExpiredHolds } from "#server/services/cart/holds";
import { listSizeLabels } from "#server/services/catalog/product-stock";
import { processOrder } from "#server/services/checkout/checkout";
import { orderConfirmationEmail } from "#server/services/mail/order-emails";
import { createTestContext } from "../setup/context";
import { api, CookieJar } from "../setup/http";

const ctx = createTestContext();
const admin = new CookieJar();
let n = 0;

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "sizer", password: "sizer-password", email: "sizer@example.com" });
  await api("POST", "/api/login", { body: { username: "sizer", password: "sizer-password" }, jar: admin });
});
beforeEach(() => ctx.clock.set("2026-06-01T12:00:00.000Z"));

const customer = () => ({
  email: `sized${++n}@example.com`,
  name: "Size Shopper",
  phone: "",
  street: `${n} Fit Street`,
  city: "Albany",
  state: "NY",
  zipCode: "12207",
  country: "US",
});

async function create(body: Record<string, unknown>): Promise<AdminProduct> {
  const response = await api("POST", "/api/admin/products", {
    jar: admin,
    body: { description: "A piece that comes in sizes.", price: 40, ...body },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as AdminProduct;
}

const patchProduct = (id: number, body: unknown) => api("PATCH", `/api/admin/products/${id}`, { jar: admin, body });
const add = (body: unknown, jar = new CookieJar()) => api("POST", "/api/cart", { body, jar });
const cartOf = async (jar: CookieJar) => (await (await api("GET", "/api/cart", { jar })).json()) as CartView;

async function expectError(response: Response, status: number, message: string) {
  expect({ status: response.status, message: ((await response.json()) as { message: string }).message }).toEqual({ status, message });
}

const sizeRow = (productId: number, label: string) =>
  ctx.db
    .selectFrom("productSizes")
    .select("inventory")
    .where("productId", "=", productId)
    .where("label", "=", label)
    .executeTakeFirstOrThrow();
const productRow = (productId: number) =>
  ctx.db.selectFrom("products").select("inventory").where("id", "=", productId).executeTakeFirstOrThrow();

describe("the admin gives a product sizes", () => {
  it("POST takes sizes in order; inventory is their sum; GET /api/products and the admin answers carry them", async () => {
    const product = await create({
      name: "Sized Hoodie",
      inventory: 99,
      sizes: [
        { label: "S", inventory: 2 },
        { label: "M", inventory: 3 },
        { label: "L", inventory: 0 },
      ],
    });
    expect(product.sizes).toEqual([
      { label: "S", inventory: 2 },
      { label: "M", inventory: 3 },
      { label: "L", inventory: 0 },
    ]);
    expect(product.inventory).toBe(5);
    expect(product.stockPerColor).toBe(false);
    expect(product).not.toHaveProperty("variants");
    const listed = ((await (await api("GET", "/api/products")).json()) as PublicProduct[]).find((p) => p.id === product.id)!;
    expect(listed.sizes).toEqual(product.sizes);
    expect(listed.inventory).toBe(5);
    expect(await listSizeLabels(ctx, product.id)).toEqual(["S", "M", "L"]);
    const plain = await create({ name: "Plain Cap", inventory: 4 });
    expect(plain.sizes).toEqual([]);
    expect(plain.inventory).toBe(4);
    expect(await listSizeLabels(ctx, plain.id)).toEqual([]);
  });

  it("refuses labels used twice whatever their case, and labels over 12 characters, writing nothing", async () => {
    const twice = await api("POST", "/api/admin/products", {
      jar: admin,
      body: { name: "Twice Tee", description: "Has a size listed twice.", price: 30, sizes: [{ label: "M" }, { label: "m" }] },
    });
    await expectError(twice, 400, "Size m is listed twice");
    const long = await api("POST", "/api/admin/products", {
      jar: admin,
      body: { name: "Long Tee", description: "Has a long size label.", price: 30, sizes: [{ label: "Thirteen char" }] },
    });
    await expectError(long, 400, "Size labels must be 1 to 12 characters");
    expect(await ctx.db.selectFrom("products").select("id").where("name", "in", ["Twice Tee", "Long Tee"]).execute()).toEqual([]);
  });

  it("refuses a PATCH that sets inventory while the product has sizes, naming them", async () => {
    const product = await create({
      name: "Read Only Tee",
      sizes: [
        { label: "S", inventory: 1 },
        { label: "M", inventory: 1 },
      ],
    });
    await expectError(
      await patchProduct(product.id, { inventory: 10 }),
      409,
      "Inventory is the sum of the sizes (S, M): change the stock of a size instead.",
    );
    expect((await productRow(product.id)).inventory).toBe(2);
    // The form's save sends the stock it found: unchanged, it is no change at all.
    expect((await patchProduct(product.id, { name: "Read Only Tee 2", inventory: 2, inventoryWas: 2 })).status).toBe(200);
  });

  it("a PATCH's list renames, reorders and restocks; a size left out with a live hold is refused, naming it", async () => {
    const product = await create({
      name: "Hold Size Tee",
      sizes: [
        { label: "S", inventory: 3 },
        { label: "M", inventory: 3 },
      ],
    });
    const jar = new CookieJar();
    expect((await add({ productId: product.id, size: "M" }, jar)).status).toBe(201);
    const session = (await ctx.db.selectFrom("cartItems").select("sessionId").where("productId", "=", product.id).executeTakeFirstOrThrow())
      .sessionId;
    await processOrder(ctx, { sessionId: session, customer: customer(), shippingMethod: "usps-ground_saver" });
    expect((await sizeRow(product.id, "M")).inventory).toBe(2);
    await expectError(
      await patchProduct(product.id, { sizes: [{ label: "S", inventory: 3 }] }),
      409,
      "Size M is in a checkout right now and cannot be removed. Try again in a few minutes.",
    );
    expect(await listSizeLabels(ctx, product.id)).toEqual(["S", "M"]);
    const reordered = await patchProduct(product.id, {
      sizes: [
        { label: "m", inventory: 5 },
        { label: "S", inventory: 1 },
        { label: "XL", inventory: 4 },
      ],
    });
    expect(reordered.status).toBe(200);
    expect(((await reordered.json()) as AdminProduct).sizes).toEqual([
      { label: "m", inventory: 5 },
      { label: "S", inventory: 1 },
      { label: "XL", inventory: 4 },
    ]);
    expect((await productRow(product.id)).inventory).toBe(10);
    // The hold followed its size's new spelling, and goes back on that shelf when it runs out.
    ctx.clock.set("2026-06-01T13:00:00.000Z");
    await releaseExpiredHolds(ctx);
    expect((await sizeRow(product.id, "m")).inventory).toBe(6);
    expect((await productRow(product.id)).inventory).toBe(11);
    const removed = await patchProduct(product.id, { sizes: [{ label: "S", inventory: 1 }] });
    expect(removed.status).toBe(200);
    expect(await listSizeLabels(ctx, product.id)).toEqual(["S"]);
  });
});

describe("POST /api/cart with sizes", () => {
  it("answers the issue's 400s and 409, and writes nothing for them", async () => {
    const product = await create({
      name: "Message Tee",
      sizes: [
        { label: "M", inventory: 0 },
        { label: "L", inventory: 2 },
      ],
    });
    const jar = new CookieJar();
    await expectError(await add({ productId: product.id, quantity: 1 }, jar), 400, "Please choose a size.");
    await expectError(await add({ productId: product.id, size: "XL" }, jar), 400, "Size XL is not available for Message Tee.");
    await expectError(await add({ productId: product.id, size: "M" }, jar), 409, "Message Tee in size M is sold out.");
    await expectError(await add({ productId: product.id, size: "L", quantity: 3 }, jar), 409, "Only 2 left in stock.");
    expect(await ctx.db.selectFrom("cartItems").select("id").where("productId", "=", product.id).execute()).toEqual([]);
  });

  it("keeps one line per size; lines carry size and colour; the first available colour when none is named", async () => {
    const product = await create({
      name: "Line Tee",
      availableColors: ["Navy", "Black"],
      sizes: [
        { label: "S", inventory: 5 },
        { label: "M", inventory: 5 },
      ],
    });
    const jar = new CookieJar();
    expect((await add({ productId: product.id, size: "m" }, jar)).status).toBe(201);
    expect((await add({ productId: product.id, size: "M", color: "navy" }, jar)).status).toBe(200);
    expect((await add({ productId: product.id, size: "S", color: "Black" }, jar)).status).toBe(201);
    await expectError(
      await add({ productId: product.id, size: "S", color: "Purple" }, jar),
      400,
      "Colour Purple is not available for Line Tee.",
    );
    const cart = await cartOf(jar);
    expect(cart.cartItems.map((l) => [l.size, l.color, l.quantity, l.product.inventory])).toEqual([
      ["M", "Navy", 2, 5],
      ["S", "Black", 1, 5],
    ]);
    expect(cart.count).toBe(3);
  });

  it("PATCH and DELETE name the line with ?size=&color=; without them a bag with two lines of it is a 400", async () => {
    const product = await create({
      name: "Two Line Tee",
      sizes: [
        { label: "S", inventory: 2 },
        { label: "M", inventory: 2 },
      ],
    });
    const jar = new CookieJar();
    await add({ productId: product.id, size: "S" }, jar);
    await add({ productId: product.id, size: "M" }, jar);
    await expectError(
      await api("PATCH", `/api/cart/${product.id}`, { jar, body: { quantity: 2 } }),
      400,
      "Your bag has more than one line of this product: name the one you mean with size and color.",
    );
    await expectError(await api("PATCH", `/api/cart/${product.id}?size=M`, { jar, body: { quantity: 3 } }), 409, "Only 2 left in stock.");
    expect((await api("PATCH", `/api/cart/${product.id}?size=M`, { jar, body: { quantity: 2 } })).status).toBe(200);
    expect((await api("DELETE", `/api/cart/${product.id}?size=s`, { jar })).status).toBe(200);
    expect((await cartOf(jar)).cartItems.map((l) => [l.size, l.quantity])).toEqual([["M", 2]]);
    // One line left: it needs no name.
    expect((await api("DELETE", `/api/cart/${product.id}`, { jar })).status).toBe(200);
    await expectError(await api("DELETE", `/api/cart/${product.id}?size=M`, { jar }), 404, "This item is not in your bag.");
  });

  it("a size never blocks another, and the limit per customer counts every size of the product", async () => {
    const product = await create({
      name: "Limit Size Tee",
      maxPerCustomer: 2,
      sizes: [
        { label: "S", inventory: 5 },
        { label: "M", inventory: 5 },
      ],
    });
    const jar = new CookieJar();
    expect((await add({ productId: product.id, size: "S" }, jar)).status).toBe(201);
    expect((await add({ productId: product.id, size: "M" }, jar)).status).toBe(201);
    await expectError(await add({ productId: product.id, size: "M" }, jar), 409, "Limit 2 per customer for Limit Size Tee.");
    await expectError(
      await api("PATCH", `/api/cart/${product.id}?size=S`, { jar, body: { quantity: 2 } }),
      409,
      "Limit 2 per customer for Limit Size Tee.",
    );
  });
});

describe("stock per colour and size", () => {
  it("answers variants; each colour and size sells out on its own, with the issue's 409s", async () => {
    const product = await create({
      name: "Grid Tee",
      availableColors: ["Black", "White"],
      sizes: [{ label: "S" }, { label: "M" }],
      stockPerColor: true,
      variants: [
        { size: "S", color: "Black", inventory: 1 },
        { size: "M", color: "Black", inventory: 0 },
        { size: "S", color: "White", inventory: 2 },
        { size: "M", color: "White", inventory: 3 },
      ],
    });
    expect(product.stockPerColor).toBe(true);
    expect(product.sizes).toEqual([
      { label: "S", inventory: 3 },
      { label: "M", inventory: 3 },
    ]);
    expect(product.inventory).toBe(6);
    expect(product.variants).toEqual([
      { size: "S", color: "Black", inventory: 1 },
      { size: "S", color: "White", inventory: 2 },
      { size: "M", color: "Black", inventory: 0 },
      { size: "M", color: "White", inventory: 3 },
    ]);
    const jar = new CookieJar();
    await expectError(await add({ productId: product.id, size: "M", color: "Black" }, jar), 409, "Grid Tee in Black, size M is sold out.");
    // No colour named: the first colour still in stock in that size.
    expect((await add({ productId: product.id, size: "M" }, jar)).status).toBe(201);
    expect((await cartOf(jar)).cartItems.map((l) => [l.size, l.color, l.product.inventory])).toEqual([["M", "White", 3]]);

    const noSizes = await create({
      name: "Grid Cap",
      availableColors: ["Black", "Red"],
      stockPerColor: true,
      variants: [
        { size: null, color: "Black", inventory: 0 },
        { size: null, color: "Red", inventory: 1 },
      ],
    });
    expect(noSizes.inventory).toBe(1);
    await expectError(await add({ productId: noSizes.id, color: "Black" }), 409, "Grid Cap in Black is sold out.");
  });
});

describe("Process Order per size", () => {
  it("holds the size's units, writes the size and colour on the order's items, and gives them back on expiry", async () => {
    const product = await create({
      name: "Order Size Tee",
      availableColors: ["Navy"],
      sizes: [
        { label: "S", inventory: 1 },
        { label: "M", inventory: 4 },
      ],
    });
    const jar = new CookieJar();
    await add({ productId: product.id, size: "M", quantity: 2 }, jar);
    const session = (await ctx.db.selectFrom("cartItems").select("sessionId").where("productId", "=", product.id).executeTakeFirstOrThrow())
      .sessionId;
    const placed = await processOrder(ctx, { sessionId: session, customer: customer(), shippingMethod: "usps-ground_saver" });
    expect(placed.orderSummary.items).toEqual([expect.objectContaining({ productId: product.id, size: "M", color: "Navy", quantity: 2 })]);
    expect((await sizeRow(product.id, "M")).inventory).toBe(2);
    expect((await sizeRow(product.id, "S")).inventory).toBe(1);
    expect((await productRow(product.id)).inventory).toBe(3);
    const items = await ctx.db.selectFrom("orderItems").select(["size", "color", "quantity"]).where("productId", "=", product.id).execute();
    expect(items).toEqual([{ size: "M", color: "Navy", quantity: 2 }]);
    // The admin's order answer and the confirmation e-mail say which size and colour.
    const listed = (await (await api("GET", "/api/admin/orders", { jar: admin })).json()) as {
      orders: { id: number; items: { productId: number; size: string | null; color: string | null }[] }[];
    };
    const line = listed.orders.find((o) => o.id === placed.orderSummary.orderId)!.items[0]!;
    expect(line).toMatchObject({ productId: product.id, size: "M", color: "Navy" });
    const order = await ctx.db.selectFrom("orders").selectAll().where("id", "=", placed.orderSummary.orderId).executeTakeFirstOrThrow();
    const mail = orderConfirmationEmail(ctx, order, [
      { productName: "Order Size Tee", productPriceCents: 4000, quantity: 2, totalCents: 8000, size: "M", color: "Navy" },
    ]);
    expect(mail.text).toContain("Order Size Tee (Size M · Navy) x 2: $80.00");
    ctx.clock.set("2026-06-01T13:00:00.000Z");
    await releaseExpiredHolds(ctx);
    expect((await sizeRow(product.id, "M")).inventory).toBe(4);
    expect((await productRow(product.id)).inventory).toBe(5);
  });

  it("an order of a product without sizes or colours has neither on its items, as before", async () => {
    const product = await create({ name: "Order Plain Cap", inventory: 3 });
    const jar = new CookieJar();
    await add({ productId: product.id }, jar);
    const session = (await ctx.db.selectFrom("cartItems").select("sessionId").where("productId", "=", product.id).executeTakeFirstOrThrow())
      .sessionId;
    await processOrder(ctx, { sessionId: session, customer: customer(), shippingMethod: "usps-ground_saver" });
    expect(await ctx.db.selectFrom("orderItems").select(["size", "color"]).where("productId", "=", product.id).execute()).toEqual([
      { size: null, color: null },
    ]);
    expect((await productRow(product.id)).inventory).toBe(2);
  });
});

type BuyerResult = { ok: boolean; message?: string };

/**
 * One buyer in its own process. It prints `{"ready":true}` once loaded and connected, and presses
 * Process Order when `go` writes to its stdin. Its stdout also carries the store's log lines (pino
 * writes them off the event loop, so one may come after the result): the result is the line that
 * parses to an object with a boolean `ok` and no log `level`.
 */
function buyer(sessionId: string, email: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "tests/fixtures/limit-buyer.ts", ctx.config.dataDir, sessionId, email, "stdin"],
    { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, STORE_TEST_DATABASE: JSON.stringify(ctx.config.database) } },
  );
  let stdout = "";
  let stderr = "";
  const lines = () =>
    stdout.split("\n").flatMap((line) => {
      try {
        const value: unknown = JSON.parse(line);
        return typeof value === "object" && value !== null && !("level" in value) ? [value as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    if (lines().some((l) => l.ready === true)) markReady();
  });
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 110_000);
  onTestFinished(() => void child.kill("SIGKILL"));
  const done = new Promise<BuyerResult>((resolve, reject) => {
    child.on("exit", (code) => {
      clearTimeout(timer);
      const result = lines().find((l) => typeof l.ok === "boolean");
      if (code !== 0 || !result) return reject(new Error(`buyer exited with ${code}:\n${stderr}\n${stdout}`));
      resolve(result as BuyerResult);
    });
  });
  // A buyer that dies before it is ready fails the test through `done`, not a wait for `ready`.
  return { ready: Promise.race([ready, done.then(() => undefined)]), done, go: () => child.stdin.end("go\n") };
}

/** Starts the buyers, waits until every one is loaded and connected, then lets them press at once. */
async function race(buyers: [sessionId: string, email: string][]): Promise<BuyerResult[]> {
  // Holds earlier tests left behind have expired by the buyers' real clock: release them here, so
  // that the buyers race for the last unit, not to tidy up after other tests.
  ctx.clock.set(new Date().toISOString());
  await releaseExpiredHolds(ctx);
  const started = buyers.map(([sessionId, email]) => buyer(sessionId, email));
  await Promise.all(started.map((b) => b.ready));
  for (const b of started) b.go();
  return Promise.all(started.map((b) => b.done));
}

describe("two processes racing per variant", () => {
  it("for the last M: one M is sold, the other buyer is told it sold out, and the L beside it is untouched", async () => {
    const product = await create({
      name: "Race Size Tee",
      sizes: [
        { label: "M", inventory: 1 },
        { label: "L", inventory: 1 },
      ],
    });
    for (const sessionId of ["size-race-a", "size-race-b"]) {
      await ctx.db.insertInto("cartItems").values({ sessionId, productId: product.id, quantity: 1, size: "M" }).execute();
    }
    await ctx.db.insertInto("cartItems").values({ sessionId: "size-race-l", productId: product.id, quantity: 1, size: "L" }).execute();
    const results = await race([
      ["size-race-a", "race-m-1@example.com"],
      ["size-race-b", "race-m-2@example.com"],
      ["size-race-l", "race-l@example.com"],
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    expect(results.find((r) => !r.ok)?.message).toBe("Sorry, Race Size Tee (Size M) just sold out.");
    expect((await sizeRow(product.id, "M")).inventory).toBe(0);
    expect((await sizeRow(product.id, "L")).inventory).toBe(0);
    expect((await productRow(product.id)).inventory).toBe(0);
    const sold = await ctx.db.selectFrom("orderItems").select(["size"]).where("productId", "=", product.id).orderBy("size").execute();
    expect(sold).toEqual([{ size: "L" }, { size: "M" }]);
  }, 120_000);

  it("for the last Black M: one is sold, and White M stays on the shelf", async () => {
    const product = await create({
      name: "Race Grid Tee",
      availableColors: ["Black", "White"],
      sizes: [{ label: "M" }],
      stockPerColor: true,
      variants: [
        { size: "M", color: "Black", inventory: 1 },
        { size: "M", color: "White", inventory: 1 },
      ],
    });
    for (const sessionId of ["grid-race-a", "grid-race-b"]) {
      await ctx.db.insertInto("cartItems").values({ sessionId, productId: product.id, quantity: 1, size: "M", color: "Black" }).execute();
    }
    const results = await race([
      ["grid-race-a", "grid-1@example.com"],
      ["grid-race-b", "grid-2@example.com"],
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)?.message).toBe("Sorry, Race Grid Tee (Size M, Black) just sold out.");
    const variants = await ctx.db
      .selectFrom("productVariants")
      .select(["color", "inventory"])
      .where("productId", "=", product.id)
      .orderBy("color")
      .execute();
    expect(variants).toEqual([
      { color: "Black", inventory: 0 },
      { color: "White", inventory: 1 },
    ]);
    expect((await sizeRow(product.id, "M")).inventory).toBe(1);
    expect((await productRow(product.id)).inventory).toBe(1);
  }, 120_000);
});

import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { productFormSchema, type AdminProduct } from "#server/contracts/admin-products";
import { useAppContextForTests } from "#server/boot";
import { createProduct, deleteProduct, listAdminProducts } from "#server/services/catalog/admin-products";
import { listVisibleProducts } from "#server/services/catalog/catalog";
import { addProductImage } from "#server/services/catalog/product-images";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar, send } from "../setup/http";
import { addProduct } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();
const shopper = new CookieJar();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
  await api("POST", "/api/register", { body: { username: "shopper", password: "shopper1", email: "s@example.com" }, jar: shopper });
});

const VALID = {
  name: "Legacy Tee",
  description: "A heavyweight tee for the first drop.",
  price: 45.5,
  inventory: 12,
};

const create = (body: unknown, jar: CookieJar | undefined = admin) => api("POST", "/api/admin/products", { body, jar });
const patch = (id: number | string, body: unknown, jar: CookieJar | undefined = admin) =>
  api("PATCH", `/api/admin/products/${id}`, { body, jar });
const remove = (id: number | string, jar: CookieJar | undefined = admin) => api("DELETE", `/api/admin/products/${id}`, { jar });

async function png(color = "#336699"): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
    .png()
    .toBuffer();
}

const filesOf = (imagePath: string) => [400, 800, 1200].map((w) => path.join(ctx.config.uploadsDir, `${imagePath}-${w}.webp`));

describe("product validation (spec §5, exact messages)", () => {
  it("gives the spec's messages for every field that breaks a rule, and writes nothing", async () => {
    const before = (await listAdminProducts(ctx)).length;
    const response = await create({
      name: "ab",
      description: "too short",
      price: 0,
      inventory: -1,
      discountPercent: 101,
      weight: 0,
      length: -2,
      availableColors: ["Black", "black"],
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe("Name must be at least 3 characters");
    expect(body.errors).toMatchObject({
      name: ["Name must be at least 3 characters"],
      description: ["Description must be at least 10 characters"],
      price: ["Price must be a positive number"],
      inventory: ["Inventory must be a non-negative integer"],
      discountPercent: ["Discount must be a whole number from 0 to 100"],
      weight: ["Weight must be a positive number"],
      length: ["Length must be a positive number"],
      availableColors: ["Color already added"],
    });
    expect(await listAdminProducts(ctx)).toHaveLength(before);
  });

  it("refuses a missing price, a non-number, a fractional inventory and an unsafe image URL", async () => {
    const body = await (await create({ ...VALID, price: "abc", inventory: 1.5, imageUrl: "javascript:alert(1)" })).json();
    expect(body.errors.price).toEqual(["Price must be a positive number"]);
    expect(body.errors.inventory).toEqual(["Inventory must be a non-negative integer"]);
    expect(body.errors.imageUrl).toEqual(["Image URL must start with https://, http:// or /"]);
    const missing = await (await create({ name: "Tee", description: "Long enough text" })).json();
    expect(missing.errors.price).toEqual(["Price must be a positive number"]);
  });

  it("reads the admin form's strings: checkboxes, numbers, colours and the Eastern release time", () => {
    const form = {
      name: "  Drop Hoodie ",
      description: "Brushed fleece, double hood.",
      price: "84.00",
      inventory: "5",
      discountPercent: "10",
      weight: "1.6",
      length: "12",
      width: "9",
      height: "6",
      availableColors: ["Black", "Bone"],
      isCountdownRestricted: "on",
      countdownDate: "2026-07-04",
      countdownTime: "20:30",
      promoCode: "",
    };
    const parsed = productFormSchema.parse(form);
    expect(parsed).toMatchObject({
      name: "Drop Hoodie",
      price: 84,
      inventory: 5,
      discountPercent: 10,
      weight: 1.6,
      availableColors: ["Black", "Bone"],
      // An unchecked box sends nothing: not visible, not coming soon.
      isVisible: false,
      isComingSoon: false,
      isCountdownRestricted: true,
      // 20:30 EDT is 00:30 UTC the next day.
      countdownReleaseDate: "2026-07-05T00:30:00.000Z",
      promoCode: null,
    });
    // The date only counts while the restriction is on.
    expect(productFormSchema.parse({ ...form, isCountdownRestricted: undefined }).countdownReleaseDate).toBeNull();
    // One colour arrives as a string, not a list.
    expect(productFormSchema.parse({ ...form, availableColors: "Navy" }).availableColors).toEqual(["Navy"]);
  });

  it("gives the form's own messages: minimums, the time format, a time without a date", () => {
    const result = productFormSchema.safeParse({
      ...VALID,
      price: "45",
      inventory: "1",
      discountPercent: "0",
      weight: "0.05",
      length: "0.5",
      width: "9",
      height: "6",
      isCountdownRestricted: "on",
      countdownTime: "25:00",
    });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path.join("."), i.message]));
    expect(messages).toMatchObject({
      weight: "Weight must be at least 0.1",
      length: "Length must be at least 1",
      countdownTime: "Time must be in the format HH:MM (24-hour format)",
    });
    const noDate = productFormSchema.safeParse({
      ...VALID,
      price: "45",
      inventory: "1",
      discountPercent: "0",
      weight: "1",
      length: "1",
      width: "1",
      height: "1",
      isCountdownRestricted: "on",
      countdownTime: "10:00",
    });
    expect(noDate.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual([["countdownDate", "A date is required."]]);
  });
});

describe("create, update, visibility and delete", () => {
  it("creates a product with the spec's defaults, stores cents and answers in dollars", async () => {
    const response = await create({ ...VALID, availableColors: ["Black", "Navy"], promoCode: " DROP10 " });
    expect(response.status).toBe(201);
    const product: AdminProduct = await response.json();
    expect(product).toMatchObject({
      name: "Legacy Tee",
      price: 45.5,
      discountedPrice: 45.5,
      inventory: 12,
      discountPercent: 0,
      weight: 1,
      length: 12,
      width: 9,
      height: 6,
      isVisible: true,
      isComingSoon: false,
      isCountdownRestricted: false,
      countdownReleaseDate: null,
      availableColors: ["Black", "Navy"],
      promoCode: "DROP10",
      imageCount: 0,
    });
    const row = await ctx.db.selectFrom("products").select(["priceCents"]).where("id", "=", product.id).executeTakeFirstOrThrow();
    expect(row.priceCents).toBe(4550);
    const list: AdminProduct[] = await (await api("GET", "/api/admin/products", { jar: admin })).json();
    expect(list.find((p) => p.id === product.id)).toEqual(product);
  });

  it("lists hidden products too, with their image counts", async () => {
    const hidden = await addProduct(ctx, { name: "Hidden Sample", isVisible: 0 });
    await addProductImage(ctx, hidden, await png());
    const list = await listAdminProducts(ctx);
    expect(list.find((p) => p.id === hidden)).toMatchObject({ isVisible: false, imageCount: 1 });
  });

  it("updates every field, or visibility only, and says which product is unknown", async () => {
    const { id } = await createProduct(ctx, { ...VALID, ...defaults() });
    const full = await patch(id, {
      ...VALID,
      name: "Legacy Tee II",
      price: "50",
      discountPercent: 20,
      isCountdownRestricted: true,
      countdownReleaseDate: "2026-07-04T00:00:00-04:00",
    });
    expect(full.status).toBe(200);
    expect(await full.json()).toMatchObject({
      name: "Legacy Tee II",
      price: 50,
      discountedPrice: 40,
      countdownReleaseDate: "2026-07-04T04:00:00.000Z",
    });

    const hidden = await patch(id, { isVisible: false });
    expect(await hidden.json()).toMatchObject({ name: "Legacy Tee II", price: 50, isVisible: false });
    expect((await listVisibleProducts(ctx)).some((p) => p.id === id)).toBe(false);

    const empty = await patch(id, {});
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe("Send at least one product field to update.");
    expect((await patch(999_999, { isVisible: true })).status).toBe(404);
    expect((await patch("abc", { isVisible: true })).status).toBe(404);
    expect((await patch(id, { name: "x" })).status).toBe(400);
  });

  it("never overwrites stock that sales moved while the form was open", async () => {
    const { id } = await createProduct(ctx, { ...VALID, ...defaults(), inventory: 5 });
    const stockOf = async () =>
      (await ctx.db.selectFrom("products").select("inventory").where("id", "=", id).executeTakeFirstOrThrow()).inventory;
    // Two units sell after the editor loaded 5.
    await ctx.db.updateTable("products").set({ inventory: 3 }).where("id", "=", id).execute();

    // The stock left as loaded: the other edits save, the sales stay.
    const untouched = await patch(id, { ...VALID, name: "Renamed Tee", inventory: 5, inventoryWas: 5 });
    expect(untouched.status).toBe(200);
    expect(await untouched.json()).toMatchObject({ name: "Renamed Tee", inventory: 3 });

    // The stock changed from a stale number: refused, nothing written.
    const stale = await patch(id, { ...VALID, name: "Stale Tee", inventory: 50, inventoryWas: 5 });
    expect(stale.status).toBe(409);
    expect((await stale.json()).message).toBe(
      "Inventory changed from 5 to 3 while you were editing (orders and checkouts move it). The form now shows 3: enter the new number again and save.",
    );
    expect(await stockOf()).toBe(3);
    expect((await ctx.db.selectFrom("products").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name).toBe("Renamed Tee");

    // Checked against the current stock, the new number is taken.
    expect(await (await patch(id, { inventory: 50, inventoryWas: 3 })).json()).toMatchObject({ inventory: 50 });
    // Without inventoryWas (an API client that means it) the number is set as sent.
    expect(await (await patch(id, { inventory: 7 })).json()).toMatchObject({ inventory: 7 });
    expect((await patch(id, { inventoryWas: -1 })).status).toBe(400);
  });

  it("deletes a product with its images and their files, after the commit", async () => {
    const { id } = await createProduct(ctx, { ...VALID, ...defaults() });
    const first = await addProductImage(ctx, id, await png("#111111"));
    const second = await addProductImage(ctx, id, await png("#eeeeee"));
    const files = [...filesOf(first.imagePath!), ...filesOf(second.imagePath!)];
    expect(files.every((f) => fs.existsSync(f))).toBe(true);

    const response = await remove(id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Product deleted.", id });
    expect(await ctx.db.selectFrom("productImages").select("id").where("productId", "=", id).execute()).toEqual([]);
    expect(files.some((f) => fs.existsSync(f))).toBe(false);
    expect((await remove(id)).status).toBe(404);
  });

  it("keeps a file another product still shows", async () => {
    const { id } = await createProduct(ctx, { ...VALID, ...defaults() });
    const image = await addProductImage(ctx, id, await png("#222222"));
    const other = await createProduct(ctx, { ...VALID, ...defaults(), imageUrl: image.imageUrl });
    expect(other.imagePath).toBe(image.imagePath);
    await deleteProduct(ctx, id);
    expect(filesOf(image.imagePath!).every((f) => fs.existsSync(f))).toBe(true);
    await deleteProduct(ctx, other.id);
    expect(filesOf(image.imagePath!).some((f) => fs.existsSync(f))).toBe(false);
  });

  it("refuses to delete a product a buyer is paying for right now (409), so the hold is not lost", async () => {
    const id = await addProduct(ctx, { name: "Held Tee" });
    const { id: orderId } = await ctx.db
      .insertInto("orders")
      .values({ customerEmail: "b@example.com", customerName: "B", shippingAddress: "{}", subtotalCents: 4000, totalCents: 4000 })
      .returning("id")
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto("inventoryHolds")
      .values({ orderId, productId: id, quantity: 1, expiresAt: "2099-01-01T00:00:00.000Z" })
      .execute();
    const response = await remove(id);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe(
      "This product is in a checkout right now. Hide it instead, or try again in a few minutes.",
    );
  });
});

function defaults() {
  return {
    inventory: 12,
    discountPercent: 0,
    maxPerCustomer: null,
    weight: 1,
    length: 12,
    width: 9,
    height: 6,
    imageUrl: null,
    imagePath: null,
    promoCode: null,
    availableColors: [],
    isVisible: true,
    isComingSoon: false,
    releaseDate: null,
    isCountdownRestricted: false,
    countdownReleaseDate: null,
  };
}

/** A multipart request as a browser sends it (with its Content-Length). */
async function multipart(url: string, jar?: CookieJar): Promise<Response> {
  const form = new FormData();
  form.append("image", new Blob([new Uint8Array(await png())], { type: "image/png" }), "a.png");
  const encoded = new Response(form);
  const body = await encoded.arrayBuffer();
  const headers = new Headers({ "Content-Type": encoded.headers.get("Content-Type")!, "Content-Length": String(body.byteLength) });
  if (jar) headers.set("Cookie", jar.header());
  return send(new Request(`http://localhost${url}`, { method: "POST", body, headers }));
}

describe("every admin product door refuses visitors (401) and non-admins (403)", () => {
  const json: [string, string, unknown?][] = [
    ["GET", "/api/admin/products"],
    ["POST", "/api/admin/products", VALID],
    ["GET", "/api/admin/products/1"],
    ["PATCH", "/api/admin/products/1", { isVisible: false }],
    ["DELETE", "/api/admin/products/1"],
    ["GET", "/api/admin/products/1/images"],
    ["PATCH", "/api/admin/products/images/1", { isPrimary: true }],
    ["DELETE", "/api/admin/products/images/1"],
  ];
  for (const [method, url, body] of json) {
    it(`${method} ${url}`, async () => {
      const product = await addProduct(ctx, { name: "Guarded" });
      const anonymous = await api(method, url, { body });
      expect(anonymous.status).toBe(401);
      expect((await anonymous.json()).message).toBe("Please sign in to continue.");
      const ordinary = await api(method, url, { body, jar: shopper });
      expect(ordinary.status).toBe(403);
      expect((await ordinary.json()).message).toBe("Admin access is required.");
      expect(await ctx.db.selectFrom("products").select("id").where("id", "=", product).executeTakeFirst()).toBeTruthy();
    });
  }

  const uploads = ["/api/admin/upload-product-image", "/api/admin/products/1/images"];
  for (const url of uploads) {
    it(`POST ${url} (multipart)`, async () => {
      const before = fs.existsSync(path.join(ctx.config.uploadsDir, "products"))
        ? fs.readdirSync(path.join(ctx.config.uploadsDir, "products")).length
        : 0;
      expect((await multipart(url)).status).toBe(401);
      expect((await multipart(url, shopper)).status).toBe(403);
      const after = fs.existsSync(path.join(ctx.config.uploadsDir, "products"))
        ? fs.readdirSync(path.join(ctx.config.uploadsDir, "products")).length
        : 0;
      expect(after).toBe(before);
    });
  }
});

describe("tRPC admin.products", () => {
  const queries = ["admin.products.list", "admin.products.images.list"];
  const mutations: [string, unknown][] = [
    ["admin.products.create", VALID],
    ["admin.products.update", { id: 1, data: VALID }],
    ["admin.products.setVisibility", { id: 1, isVisible: false }],
    ["admin.products.delete", { id: 1 }],
    ["admin.products.images.setPrimary", { imageId: 1 }],
    ["admin.products.images.reorder", { productId: 1, imageIds: [1] }],
    ["admin.products.images.delete", { imageId: 1 }],
  ];
  const query = (name: string, input: unknown, jar?: CookieJar) =>
    api("GET", `/api/trpc/${name}?input=${encodeURIComponent(JSON.stringify(input))}`, { jar });
  const mutate = (name: string, input: unknown, jar?: CookieJar) => api("POST", `/api/trpc/${name}`, { body: input, jar });

  it("refuses every procedure to visitors (401) and non-admins (403)", async () => {
    for (const name of queries) {
      expect((await query(name, { id: 1 })).status, name).toBe(401);
      expect((await query(name, { id: 1 }, shopper)).status, name).toBe(403);
    }
    for (const [name, input] of mutations) {
      expect((await mutate(name, input)).status, name).toBe(401);
      expect((await mutate(name, input, shopper)).status, name).toBe(403);
    }
  });

  it("lets an admin create, hide, list and delete through the same services", async () => {
    const created = await mutate("admin.products.create", { ...VALID, name: "tRPC Tee" }, admin);
    expect(created.status).toBe(200);
    const product: AdminProduct = (await created.json()).result.data;
    expect(product).toMatchObject({ name: "tRPC Tee", price: 45.5, isVisible: true });
    const hidden = await mutate("admin.products.setVisibility", { id: product.id, isVisible: false }, admin);
    expect((await hidden.json()).result.data.isVisible).toBe(false);
    const list: AdminProduct[] = (await (await query("admin.products.list", undefined, admin)).json()).result.data;
    expect(list.find((p) => p.id === product.id)?.isVisible).toBe(false);
    const invalid = await mutate("admin.products.update", { id: product.id, data: { ...VALID, name: "no" } }, admin);
    expect(invalid.status).toBe(400);
    const deleted = await mutate("admin.products.delete", { id: product.id }, admin);
    expect((await deleted.json()).result.data).toEqual({ id: product.id });
    const gone = await mutate("admin.products.delete", { id: product.id }, admin);
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.message).toBe("Product not found.");
  });
});

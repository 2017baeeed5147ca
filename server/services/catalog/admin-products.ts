import type { Product, ProductUpdate } from "#db/schema";
import { PRODUCT_MESSAGES, type AdminProduct, type ProductInput, type ProductPatch } from "#server/contracts/admin-products";
import { forUpdateOnPostgres } from "#db/engine";
import { toCents } from "#server/contracts/money";
import type { AppContext } from "#server/context";
import { Conflict, Invalid, NotFound } from "#server/errors";
import { toPublicProduct } from "./catalog";
import { SIZE_MESSAGES } from "#server/contracts/sizes-view";
import { saveStock, sizeLabelsIn, touchesStock } from "./product-sizes";
import { lockProductRows, NO_STOCK, stockOf, type ProductStock } from "./product-stock";
import { imageBasesOf, ownImagePathOf, removeUnreferencedImages } from "./product-image-files";

/**
 * The back office's products: every product (hidden and unreleased ones too), in dollars.
 * Money crosses this line once: dollars in, cents in the database.
 */

type Row = Product & { imageCount: number };

export function toAdminProduct(row: Row, stock: ProductStock = NO_STOCK): AdminProduct {
  return {
    ...toPublicProduct(row, stock),
    stockPerColor: row.stockPerColor === 1,
    isCountdownRestricted: row.isCountdownRestricted === 1,
    countdownReleaseDate: row.countdownReleaseDate,
    weight: row.weight,
    length: row.length,
    width: row.width,
    height: row.height,
    imageCount: Number(row.imageCount),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function rows(ctx: AppContext) {
  return ctx.db
    .selectFrom("products")
    .selectAll("products")
    .select((eb) =>
      eb
        .selectFrom("productImages")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("productImages.productId", "=", "products.id")
        .as("imageCount"),
    )
    .$narrowType<{ imageCount: number }>();
}

/** Every product, newest first, with how many pictures each has. */
export async function listAdminProducts(ctx: AppContext): Promise<AdminProduct[]> {
  const all = await rows(ctx).orderBy("products.createdAt", "desc").orderBy("products.id", "desc").execute();
  const stock = await stockOf(ctx.db, all);
  return all.map((row) => toAdminProduct(row, stock.get(row.id)));
}

export async function getAdminProduct(ctx: AppContext, id: number): Promise<AdminProduct> {
  const row = await rows(ctx).where("products.id", "=", id).executeTakeFirst();
  if (!row) throw new NotFound(PRODUCT_MESSAGES.notFound);
  return toAdminProduct(row, (await stockOf(ctx.db, [row])).get(row.id));
}

/**
 * Contract fields → columns. Only the fields present are written (a patch leaves the rest). Sizes,
 * variants and stockPerColor are written by saveStock.
 */
function toColumns(input: Omit<ProductPatch, "sizes" | "variants" | "stockPerColor">): ProductUpdate {
  const columns: ProductUpdate = {};
  const set = <K extends keyof ProductUpdate>(key: K, value: ProductUpdate[K] | undefined) => {
    if (value !== undefined) columns[key] = value;
  };
  const bit = (v: boolean | undefined) => (v === undefined ? undefined : v ? (1 as const) : (0 as const));
  set("name", input.name);
  set("description", input.description);
  set("priceCents", input.price === undefined ? undefined : toCents(input.price));
  set("inventory", input.inventory);
  set("discountPercent", input.discountPercent);
  set("maxPerCustomer", input.maxPerCustomer);
  set("weight", input.weight);
  set("length", input.length);
  set("width", input.width);
  set("height", input.height);
  set("imageUrl", input.imageUrl);
  set("imagePath", input.imagePath);
  set("promoCode", input.promoCode);
  set("availableColors", input.availableColors && JSON.stringify(input.availableColors));
  set("isVisible", bit(input.isVisible));
  set("isComingSoon", bit(input.isComingSoon));
  set("releaseDate", input.releaseDate);
  set("isCountdownRestricted", bit(input.isCountdownRestricted));
  set("countdownReleaseDate", input.countdownReleaseDate);
  set("sizeGuide", input.sizeGuide);
  // An uploaded image's URL names its variant base: keep the base too, so the store gets a srcset.
  if (input.imageUrl && !input.imagePath) {
    const own = ownImagePathOf(input.imageUrl);
    if (own) columns.imagePath = own;
  }
  return columns;
}

/** A new product's fields; sizes and colour stock may be left out (none). */
export type ProductCreate = Omit<ProductInput, "sizes" | "stockPerColor" | "sizeGuide" | "variants"> &
  Partial<Pick<ProductInput, "sizes" | "stockPerColor" | "sizeGuide" | "variants">>;

/** A new product; with sizes its inventory is their sum, whatever `inventory` said (decision 0045). */
export async function createProduct(ctx: AppContext, input: ProductCreate): Promise<AdminProduct> {
  const now = ctx.clock.now().toISOString();
  const { sizes, variants, stockPerColor, ...fields } = input;
  const columns = toColumns(fields);
  const stock = { sizes, variants, stockPerColor, availableColors: input.availableColors };
  const id = await ctx.db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto("products")
      .values({
        ...columns,
        name: input.name,
        description: input.description,
        priceCents: columns.priceCents!,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if ((sizes && sizes.length > 0) || stockPerColor) await saveStock(trx, id, stock, now);
    return id;
  });
  return getAdminProduct(ctx, id);
}

/** A full update or any part of one (the list's show/hide sends `isVisible` only). */
export async function updateProduct(ctx: AppContext, id: number, patch: ProductPatch): Promise<AdminProduct> {
  const { inventoryWas, sizes, variants, stockPerColor, ...fields } = patch;
  const columns = toColumns(fields);
  const stock = { sizes, variants, stockPerColor, availableColors: patch.availableColors };
  if (touchesStock(stock)) return updateWithSizes(ctx, id, patch);
  // The editor left the stock as it found it: keep whatever sales did meanwhile.
  if (inventoryWas !== undefined && columns.inventory === inventoryWas) delete columns.inventory;
  const guarded = inventoryWas !== undefined && columns.inventory !== undefined;
  if (Object.keys(columns).length === 0 && inventoryWas === undefined) throw new Invalid(PRODUCT_MESSAGES.nothingToUpdate);
  const before = await ctx.db.selectFrom("products").select(["imageUrl", "imagePath"]).where("id", "=", id).executeTakeFirst();
  if (!before) throw new NotFound(PRODUCT_MESSAGES.notFound);
  if (Object.keys(columns).length === 0) return getAdminProduct(ctx, id);
  if (columns.inventory !== undefined) {
    // With sizes, inventory is their sum: the stock of a size is what changes.
    const labels = (await ctx.db.selectFrom("productSizes").select("label").where("productId", "=", id).orderBy("position").execute()).map(
      (row) => row.label,
    );
    if (labels.length > 0) {
      const message = SIZE_MESSAGES.inventoryWithSizes(labels);
      throw new Conflict(message, { inventory: [message] });
    }
  }
  // One statement: a hold taken between a read and a write could otherwise be overwritten.
  const result = await ctx.db
    .updateTable("products")
    .set({ ...columns, updatedAt: ctx.clock.now().toISOString() })
    .where("id", "=", id)
    .$if(guarded, (q) => q.where("inventory", "=", inventoryWas!))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    const now = await ctx.db.selectFrom("products").select("inventory").where("id", "=", id).executeTakeFirst();
    if (!now) throw new NotFound(PRODUCT_MESSAGES.notFound);
    throw new Conflict(PRODUCT_MESSAGES.inventoryMoved(inventoryWas!, now.inventory));
  }
  // A replaced upload (say, a new picture from the form's upload button) is garbage now.
  if ("imageUrl" in columns || "imagePath" in columns) await removeUnreferencedImages(ctx, imageBasesOf(before));
  return getAdminProduct(ctx, id);
}

/**
 * A patch that writes sizes, variants or stock per colour, or sets inventory (refused while the
 * product has sizes: its inventory is their sum), in one transaction with the product's row locked.
 */
async function updateWithSizes(ctx: AppContext, id: number, patch: ProductPatch): Promise<AdminProduct> {
  const { inventoryWas, sizes, variants, stockPerColor, ...fields } = patch;
  const columns = toColumns(fields);
  if (inventoryWas !== undefined && columns.inventory === inventoryWas) delete columns.inventory;
  const now = ctx.clock.now().toISOString();
  const before = await ctx.db.transaction().execute(async (trx) => {
    await lockProductRows(trx, [id]);
    const before = await trx.selectFrom("products").select(["imageUrl", "imagePath", "inventory"]).where("id", "=", id).executeTakeFirst();
    if (!before) throw new NotFound(PRODUCT_MESSAGES.notFound);
    const labels = sizes ? sizes.map((s) => s.label) : await sizeLabelsIn(trx, id);
    if (columns.inventory !== undefined && labels.length > 0) {
      const message = SIZE_MESSAGES.inventoryWithSizes(labels);
      throw new Conflict(message, { inventory: [message] });
    }
    if (columns.inventory !== undefined && inventoryWas !== undefined && before.inventory !== inventoryWas) {
      throw new Conflict(PRODUCT_MESSAGES.inventoryMoved(inventoryWas, before.inventory));
    }
    await trx
      .updateTable("products")
      .set({ ...columns, updatedAt: now })
      .where("id", "=", id)
      .execute();
    await saveStock(trx, id, { sizes, variants, stockPerColor, availableColors: fields.availableColors }, now);
    return before;
  });
  if ("imageUrl" in columns || "imagePath" in columns) await removeUnreferencedImages(ctx, imageBasesOf(before));
  return getAdminProduct(ctx, id);
}

export function setProductVisibility(ctx: AppContext, id: number, isVisible: boolean): Promise<AdminProduct> {
  return updateProduct(ctx, id, { isVisible });
}

/**
 * Deletes a product; its image rows and bag lines go with it (ON DELETE CASCADE), past orders keep
 * their copy of its name and price. The files go after the commit: a failed delete never leaves
 * rows pointing at missing pictures.
 */
export async function deleteProduct(ctx: AppContext, id: number): Promise<{ id: number }> {
  const bases = await ctx.db.transaction().execute(async (trx) => {
    // Locked on PostgreSQL first: a checkout's hold (its stock UPDATE waits on this row) then
    // either lands before the check below sees it, or finds the product gone.
    const product = await forUpdateOnPostgres(
      trx,
      trx.selectFrom("products").select(["imageUrl", "imagePath"]).where("id", "=", id),
    ).executeTakeFirst();
    if (!product) throw new NotFound(PRODUCT_MESSAGES.notFound);
    // Deleting would cascade away a buyer's hold mid-payment; the admin can hide it meanwhile.
    const held = await trx
      .selectFrom("inventoryHolds")
      .select("id")
      .where("productId", "=", id)
      .where("status", "=", "held")
      .where("expiresAt", ">", ctx.clock.now().toISOString())
      .executeTakeFirst();
    if (held) throw new Conflict(PRODUCT_MESSAGES.inCheckout);
    const images = await trx.selectFrom("productImages").select(["imageUrl", "imagePath"]).where("productId", "=", id).execute();
    await trx.deleteFrom("products").where("id", "=", id).execute();
    return [product, ...images].flatMap(imageBasesOf);
  });
  await removeUnreferencedImages(ctx, bases);
  return { id };
}

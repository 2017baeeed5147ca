import { beforeAll, describe, expect, it } from "vitest";
import * as storeRoute from "#app/routes/store._index";
import * as productRoute from "#app/routes/store.$productId";
import type { PublicProduct } from "#server/contracts/catalog";
import { useAppContextForTests } from "#server/boot";
import { getPublicProduct, listProductImages, listVisibleProducts } from "#server/services/catalog/catalog";
import { saveCountdown } from "#server/services/drop/drops";
import { createTestContext } from "../setup/context";
import { api } from "../setup/http";
import { addImage, addProduct, runRoute } from "./store-helpers";

const ctx = createTestContext();
beforeAll(() => useAppContextForTests(ctx));

const NOW = "2026-06-01T12:00:00.000Z";
const LATER = "2026-06-04T04:00:00.000Z";

async function restProducts(): Promise<PublicProduct[]> {
  const response = await api("GET", "/api/products");
  expect(response.status).toBe(200);
  return response.json();
}

const images = (id: number | string) => api("GET", `/api/products/${id}/images`);
const oneProduct = (id: number | string) => api("GET", `/api/products/${id}`);
interface ProductPageData {
  product: PublicProduct;
  images: { id: number }[];
  selectedImageId: number | null;
}
const productPage = (id: number | string, search = "") =>
  runRoute<ProductPageData>(productRoute.loader, { path: `/store/${id}${search}`, params: { productId: String(id) } });

describe("the public product shape", () => {
  it("shows dollars, the discounted price rounded to the cent once, booleans and colours, and nothing internal", async () => {
    ctx.clock.set(NOW);
    const id = await addProduct(ctx, {
      name: "Rounding Tee",
      priceCents: 4599,
      discountPercent: 15,
      availableColors: '["Black","Heather Oat"]',
      promoCode: "SAVE15",
    });
    const product = await getPublicProduct(ctx, id);
    expect(product).toEqual({
      id,
      name: "Rounding Tee",
      description: "A tee that exists to test the rounding of prices.",
      price: 45.99,
      // 4599 × 0.85 = 3909.15 cents → 3909.
      discountedPrice: 39.09,
      discountPercent: 15,
      imageUrl: null,
      imagePath: null,
      srcSet: null,
      inventory: 10,
      isVisible: true,
      promoCode: "SAVE15",
      availableColors: ["Black", "Heather Oat"],
      isComingSoon: false,
      releaseDate: null,
      maxPerCustomer: null,
      // No sizes: one implicit "One Size" whose stock is `inventory` (decision 0045).
      sizes: [],
      sizeGuide: null,
    });
  });

  it("offers a srcset of the WebP widths for our own images, and none for an external link", async () => {
    const own = await addProduct(ctx, { imagePath: "products/own-1", imageUrl: "/uploads/products/own-1-800.webp" });
    expect((await getPublicProduct(ctx, own)).srcSet).toBe(
      "/uploads/products/own-1-400.webp 400w, /uploads/products/own-1-800.webp 800w, /uploads/products/own-1-1200.webp 1200w",
    );
    const external = await addProduct(ctx, { imagePath: "products/stale-1", imageUrl: "https://images.example.com/x.jpg" });
    expect((await getPublicProduct(ctx, external)).srcSet).toBeNull();
  });
});

describe("GET /api/products", () => {
  it("answers an array of visible products only, newest first, with public fields", async () => {
    const older = await addProduct(ctx, { name: "Older Visible", createdAt: "2026-05-01T00:00:00.000Z" });
    const newer = await addProduct(ctx, { name: "Newer Visible", createdAt: "2026-05-20T00:00:00.000Z" });
    await addProduct(ctx, { name: "Hidden Archive Piece", isVisible: 0 });
    const products = await restProducts();
    expect(Array.isArray(products)).toBe(true);
    const names = products.map((p) => p.name);
    expect(names).not.toContain("Hidden Archive Piece");
    expect(names.indexOf("Newer Visible")).toBeLessThan(names.indexOf("Older Visible"));
    const listed = products.find((p) => p.id === older)!;
    for (const key of ["priceCents", "weight", "length", "isCountdownRestricted", "countdownReleaseDate", "createdAt"]) {
      expect(listed).not.toHaveProperty(key);
    }
    expect(products.some((p) => p.id === newer)).toBe(true);
  });

  it("carries each product's size guide, as the admin wrote it, on sale, sold out or coming soon; null without one", async () => {
    ctx.clock.set(NOW);
    const guide = "Size | Chest (in)\nS | 36-38\nM | 40-42\nMeasured flat, doubled.";
    const onSale = await addProduct(ctx, { name: "Guide On Sale", sizeGuide: guide });
    const soldOut = await addProduct(ctx, { name: "Guide Sold Out", inventory: 0, sizeGuide: guide });
    const comingSoon = await addProduct(ctx, {
      name: "Guide Coming Soon",
      isComingSoon: 1,
      releaseDate: "2026-07-01",
      sizeGuide: "Runs small: take one size up.",
    });
    const bare = await addProduct(ctx, { name: "No Guide Tee" });
    const products = await restProducts();
    const listed = (id: number) => products.find((p) => p.id === id);
    const shape = (id: number, fields: Partial<PublicProduct>) => ({
      id,
      description: "A tee that exists to test the rounding of prices.",
      price: 40,
      discountedPrice: 40,
      discountPercent: 0,
      imageUrl: null,
      imagePath: null,
      srcSet: null,
      inventory: 10,
      isVisible: true,
      promoCode: null,
      availableColors: [],
      isComingSoon: false,
      releaseDate: null,
      maxPerCustomer: null,
      sizes: [],
      ...fields,
    });
    expect(listed(onSale)).toEqual(shape(onSale, { name: "Guide On Sale", sizeGuide: guide }));
    expect(listed(soldOut)).toEqual(shape(soldOut, { name: "Guide Sold Out", inventory: 0, sizeGuide: guide }));
    expect(listed(comingSoon)).toEqual(
      shape(comingSoon, {
        name: "Guide Coming Soon",
        isComingSoon: true,
        releaseDate: "2026-07-01",
        sizeGuide: "Runs small: take one size up.",
      }),
    );
    // Without a guide the field is there, and null: an API client can tell "none" from "not asked".
    expect(listed(bare)).toEqual(shape(bare, { name: "No Guide Tee", sizeGuide: null }));
    // The product page reads the same guide from the same place, whether the product can be bought or not.
    for (const [id, sizeGuide] of [
      [onSale, guide],
      [soldOut, guide],
      [comingSoon, "Runs small: take one size up."],
      [bare, null],
    ] as const) {
      const page = await productPage(id);
      expect(page.status).toBe(200);
      expect(page.data.product).toEqual(listed(id));
      expect(page.data.product.sizeGuide).toBe(sizeGuide);
    }
  });

  it("refuses other methods with 405", async () => {
    const response = await api("POST", "/api/products", { body: {} });
    expect(response.status).toBe(405);
  });
});

describe("a countdown-restricted product", () => {
  it("does not exist for shoppers before its release instant, through any door, and appears at that instant", async () => {
    ctx.clock.set(NOW);
    const id = await addProduct(ctx, { name: "Secret Midnight Bomber", isCountdownRestricted: 1, countdownReleaseDate: LATER });
    await addImage(ctx, id, { isPrimary: 1 });

    const listText = JSON.stringify(await restProducts());
    expect(listText).not.toContain("Secret Midnight Bomber");
    expect((await listVisibleProducts(ctx)).some((p) => p.id === id)).toBe(false);

    const oneResponse = await oneProduct(id);
    expect(oneResponse.status).toBe(404);
    expect(await oneResponse.json()).toEqual({ message: "Product not found.", errors: {} });

    const imageResponse = await images(id);
    expect(imageResponse.status).toBe(404);
    expect(await imageResponse.json()).toEqual({ message: "Product not found.", errors: {} });

    const page = await productPage(id);
    expect(page.status).toBe(404);
    expect(JSON.stringify(page.data)).not.toContain("Secret");

    const grid = await runRoute(storeRoute.loader, { path: "/store" });
    expect(JSON.stringify(grid.data)).not.toContain("Secret Midnight Bomber");

    ctx.clock.set(new Date(Date.parse(LATER) - 1));
    expect((await images(id)).status).toBe(404);

    ctx.clock.set(LATER);
    expect((await restProducts()).map((p) => p.name)).toContain("Secret Midnight Bomber");
    expect((await images(id)).status).toBe(200);
    expect((await oneProduct(id)).status).toBe(200);
    const shown = await productPage(id);
    expect(shown.status).toBe(200);
    expect(shown.data.product.name).toBe("Secret Midnight Bomber");
    ctx.clock.set(NOW);
  });

  it("without a date of its own follows the store's launch countdown", async () => {
    ctx.clock.set(NOW);
    await saveCountdown(ctx, "2026-07-04T04:00:00.000Z");
    const id = await addProduct(ctx, { name: "Launch Day Cap", isCountdownRestricted: 1, countdownReleaseDate: null });
    expect((await listVisibleProducts(ctx)).some((p) => p.id === id)).toBe(false);
    ctx.clock.set("2026-07-04T04:00:00.000Z");
    expect((await listVisibleProducts(ctx)).some((p) => p.id === id)).toBe(true);
    ctx.clock.set(NOW);
  });

  it("stays hidden when its release date cannot be read", async () => {
    const id = await addProduct(ctx, { name: "Garbled Date Hoodie", isCountdownRestricted: 1, countdownReleaseDate: "soon" });
    expect((await listVisibleProducts(ctx)).some((p) => p.id === id)).toBe(false);
  });
});

describe("GET /api/products/{id}", () => {
  it("answers the product as the list shows it", async () => {
    ctx.clock.set(NOW);
    const id = await addProduct(ctx, { name: "Single Tee", priceCents: 2500, inventory: 4 });
    const response = await oneProduct(id);
    expect(response.status).toBe(200);
    const product = (await response.json()) as PublicProduct;
    expect(product).toMatchObject({ id, name: "Single Tee", price: 25 });
    expect(product).toEqual((await restProducts()).find((p) => p.id === id));
  });

  it("answers 404 with a readable message for unknown, hidden and malformed ids, and 405 to a write", async () => {
    const hidden = await addProduct(ctx, { isVisible: 0 });
    // PostgreSQL's ids are `integer`: a larger number sent to it was an error, a 500.
    for (const id of [999_999, hidden, "abc", "0", "-3", "1.5", "2147483648", "9007199254740991"]) {
      const response = await oneProduct(id);
      expect(response.status, `id ${id}`).toBe(404);
      expect(await response.json()).toEqual({ message: "Product not found.", errors: {} });
    }
    const visible = await addProduct(ctx, { name: "Read Only Tee" });
    expect((await api("PATCH", `/api/products/${visible}`, { body: { name: "Renamed" } })).status).toBe(405);
  });
});

describe("GET /api/products/{id}/images", () => {
  it("answers productId and the images, primary first, with srcsets", async () => {
    const id = await addProduct(ctx, {});
    const second = await addImage(ctx, id, {
      displayOrder: 1,
      imagePath: "products/second-1",
      imageUrl: "/uploads/products/second-1-800.webp",
    });
    const primary = await addImage(ctx, id, { displayOrder: 0, isPrimary: 1 });
    const response = await images(id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      productId: id,
      images: [
        {
          id: primary,
          productId: id,
          imageUrl: "https://cdn.example.com/p.jpg",
          imagePath: null,
          srcSet: null,
          isPrimary: true,
          displayOrder: 0,
        },
        {
          id: second,
          productId: id,
          imageUrl: "/uploads/products/second-1-800.webp",
          imagePath: "products/second-1",
          srcSet: expect.stringContaining("/uploads/products/second-1-400.webp 400w"),
          isPrimary: false,
          displayOrder: 1,
        },
      ],
    });
    expect((await listProductImages(ctx, id)).images).toHaveLength(2);
  });

  it("answers 404 with a readable message for unknown, hidden and malformed ids", async () => {
    const hidden = await addProduct(ctx, { isVisible: 0 });
    // PostgreSQL's ids are `integer`: a larger number sent to it was an error, a 500.
    for (const id of [999_999, hidden, "abc", "0", "-3", "1.5", "2147483648", "9007199254740991"]) {
      const response = await images(id);
      expect(response.status, `id ${id}`).toBe(404);
      expect((await response.json()).message).toBe("Product not found.");
    }
  });
});

describe("the store pages' loaders", () => {
  it("the grid lists the visible products", async () => {
    const id = await addProduct(ctx, { name: "Grid Listed Tee" });
    const { data } = await runRoute<{ products: PublicProduct[] }>(storeRoute.loader, { path: "/store" });
    const { products } = data;
    expect(products.find((p) => p.id === id)?.name).toBe("Grid Listed Tee");
  });

  it("the grid sends each card what it shows, not the description or size guide the product page carries", async () => {
    const guide = "Size | Chest (in)\nS | 36-38\nM | 40-42\n".repeat(90);
    const id = await addProduct(ctx, { name: "Grid Card Tee", description: "Read on its own page only.", sizeGuide: guide });
    const { data } = await runRoute<{ products: Record<string, unknown>[] }>(storeRoute.loader, { path: "/store" });
    const card = data.products.find((p) => p.id === id);
    const full = (await restProducts()).find((p) => p.id === id)!;
    expect(card).toEqual({
      id,
      name: "Grid Card Tee",
      price: full.price,
      discountedPrice: full.discountedPrice,
      discountPercent: full.discountPercent,
      imageUrl: full.imageUrl,
      imagePath: full.imagePath,
      srcSet: full.srcSet,
      inventory: full.inventory,
      isComingSoon: false,
      releaseDate: null,
      sizes: full.sizes,
    });
    expect(JSON.stringify(data)).not.toContain("Chest (in)");
    // The REST list still answers the whole product.
    expect(full).toMatchObject({ description: "Read on its own page only.", sizeGuide: guide });
  });

  it("the detail page answers 404 for hidden, unknown and malformed ids", async () => {
    const hidden = await addProduct(ctx, { name: "Hidden Page Tee", isVisible: 0 });
    for (const id of [hidden, 888_888, "nope"]) expect((await productPage(id)).status).toBe(404);
  });

  it("the detail page starts on the primary image and honours ?image= for the no-JS thumbnails", async () => {
    const id = await addProduct(ctx, {});
    const other = await addImage(ctx, id, { displayOrder: 0 });
    const primary = await addImage(ctx, id, { displayOrder: 1, isPrimary: 1 });
    const first = (await productPage(id)).data;
    expect(first.images.map((i) => i.id)).toEqual([primary, other]);
    expect(first.selectedImageId).toBe(primary);
    expect((await productPage(id, `?image=${other}`)).data.selectedImageId).toBe(other);
    // An id of another product's image is ignored rather than shown.
    expect((await productPage(id, "?image=999999")).data.selectedImageId).toBe(primary);
  });
});

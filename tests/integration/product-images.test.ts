import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminProductImage, AdminProductImagesResponse } from "#server/contracts/admin-products";
import { useAppContextForTests } from "#server/boot";
import { getAdminProduct, updateProduct } from "#server/services/catalog/admin-products";
import { getPublicProduct } from "#server/services/catalog/catalog";
import { checkImage, ImageRejected } from "#server/services/catalog/image-upload-check";
import { ownImagePathOf, removeAbandonedImages } from "#server/services/catalog/product-image-files";
import { addProductImage, deleteProductImage, setPrimaryImage, uploadProductImage } from "#server/services/catalog/product-images";
import { ensureAdmin } from "#server/services/accounts/users";
import { createTestContext } from "../setup/context";
import { api, CookieJar, send } from "../setup/http";
import { addProduct } from "./store-helpers";

const ctx = createTestContext();
const admin = new CookieJar();

beforeAll(async () => {
  useAppContextForTests(ctx);
  await ensureAdmin(ctx, { username: "boss", password: "boss-password", email: "boss@example.com" });
  await api("POST", "/api/login", { body: { username: "boss", password: "boss-password" }, jar: admin });
});

/** A multipart POST as a browser sends it, Content-Length included. */
async function post(url: string, file: { bytes: Uint8Array; name: string; type: string } | null, fields: Record<string, string> = {}) {
  const form = new FormData();
  if (file) form.append("image", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const encoded = new Response(form);
  const body = await encoded.arrayBuffer();
  const headers = new Headers({
    "Content-Type": encoded.headers.get("Content-Type")!,
    "Content-Length": String(body.byteLength),
    Cookie: admin.header(),
  });
  return send(new Request(`http://localhost${url}`, { method: "POST", body, headers }));
}

const addImage = (productId: number, file: { bytes: Uint8Array; name: string; type: string }, fields?: Record<string, string>) =>
  post(`/api/admin/products/${productId}/images`, file, fields);

const picture = (width = 1600, height = 1000, color = "#8a3b2f") => sharp({ create: { width, height, channels: 3, background: color } });

/** Real files, made here: a JPEG carrying EXIF (camera and GPS-like fields), a PNG and a GIF. */
async function samples() {
  const jpeg = await picture()
    .jpeg()
    .withExif({ IFD0: { Make: "Legacy Camera", Model: "X1", Artist: "someone@example.com" } })
    .toBuffer();
  const png = await picture(900, 900, "#1f2a44").png().toBuffer();
  const gif = await picture(320, 240, "#3f5f3a").gif().toBuffer();
  return {
    jpeg: { bytes: jpeg, name: "photo.jpg", type: "image/jpeg" },
    png: { bytes: png, name: "flat.png", type: "image/png" },
    gif: { bytes: gif, name: "anim.gif", type: "image/gif" },
  };
}

const filesOf = (imagePath: string) => [400, 800, 1200].map((w) => path.join(ctx.config.uploadsDir, `${imagePath}-${w}.webp`));

async function images(productId: number): Promise<AdminProductImage[]> {
  const response = await api("GET", `/api/admin/products/${productId}/images`, { jar: admin });
  return ((await response.json()) as AdminProductImagesResponse).images;
}

describe("uploading product images", () => {
  it("accepts real JPEG, PNG and GIF files and stores WebP widths with the metadata stripped", async () => {
    const productId = await addProduct(ctx, { name: "Upload Tee" });
    const { jpeg, png, gif } = await samples();
    expect((await sharp(jpeg.bytes).metadata()).exif).toBeDefined();
    for (const file of [jpeg, png, gif]) {
      const response = await addImage(productId, file);
      expect(response.status, file.name).toBe(201);
      const image: AdminProductImage = await response.json();
      expect(image.imagePath).toMatch(/^products\/p\d+-[0-9a-f]{32}$/);
      expect(image.imageUrl).toBe(`/uploads/${image.imagePath}-800.webp`);
      expect(image.srcSet).toContain("-400.webp 400w");
      for (const [n, file] of filesOf(image.imagePath!).entries()) {
        const meta = await sharp(file).metadata();
        expect(meta.format).toBe("webp");
        expect(meta.exif).toBeUndefined();
        expect(meta.icc).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        // Never enlarged past the original.
        expect(meta.width).toBeLessThanOrEqual([400, 800, 1200][n]!);
      }
    }
    expect(await images(productId)).toHaveLength(3);
  });

  it("refuses a text file renamed .png, an SVG and a polyglot with 415", async () => {
    const productId = await addProduct(ctx, { name: "Refusal Tee" });
    const { png, jpeg } = await samples();
    const cases = [
      { bytes: Buffer.from("just some text, honest\n".repeat(20)), name: "notes.png", type: "image/png" },
      { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'), name: "vector.png", type: "image/png" },
      // A PNG with an archive riding behind it (the "GIFAR" trick), and a JPEG with a page after it.
      { bytes: Buffer.concat([png.bytes, Buffer.from("PK\x03\x04 an archive follows", "latin1")]), name: "poly.png", type: "image/png" },
      { bytes: Buffer.concat([jpeg.bytes, Buffer.from("<html><script>alert(1)</script></html>")]), name: "poly.jpg", type: "image/jpeg" },
    ];
    for (const file of cases) {
      const response = await addImage(productId, file);
      expect(response.status, file.name).toBe(415);
      expect(await response.json(), file.name).toEqual({
        message: "Please upload a JPG, PNG or GIF image.",
        errors: { image: ["Please upload a JPG, PNG or GIF image."] },
      });
    }
    expect(await images(productId)).toHaveLength(0);
  });

  it("accepts a phone's JPEG with a gain map or a motion-photo video after the picture", async () => {
    const productId = await addProduct(ctx, { name: "Phone Tee" });
    const { jpeg } = await samples();
    const gainMap = await sharp({ create: { width: 32, height: 24, channels: 3, background: "#808080" } })
      .jpeg()
      .toBuffer();
    // An MP4's first box: size, "ftyp", brand; then the movie data.
    const video = Buffer.concat([
      Buffer.from([0, 0, 0, 0x18]),
      Buffer.from("ftypmp42\0\0\0\0mp42isom", "latin1"),
      crypto.randomBytes(2048),
    ]);
    for (const [name, bytes] of [
      ["mpf.jpg", Buffer.concat([jpeg.bytes, gainMap])],
      ["motion.jpg", Buffer.concat([jpeg.bytes, video])],
    ] as const) {
      const response = await addImage(productId, { bytes, name, type: "image/jpeg" });
      expect(response.status, name).toBe(201);
      const image: AdminProductImage = await response.json();
      // What is stored is the first picture, re-encoded: the same size as the sample.
      const meta = await sharp(filesOf(image.imagePath!)[0]!).metadata();
      expect([meta.format, meta.width]).toEqual(["webp", Math.min(400, (await sharp(jpeg.bytes).metadata()).width!)]);
    }
    // An archive after a JPEG is still a second file riding along.
    const zip = await addImage(productId, {
      bytes: Buffer.concat([jpeg.bytes, Buffer.from("PK\x03\x04 an archive follows", "latin1")]),
      name: "zip.jpg",
      type: "image/jpeg",
    });
    expect(zip.status).toBe(415);
    expect(await images(productId)).toHaveLength(2);
  });

  it("refuses more than 5 MB with 413, before reading the body", async () => {
    const productId = await addProduct(ctx, { name: "Big Tee" });
    const big = { bytes: new Uint8Array(5 * 1024 * 1024 + 1), name: "big.png", type: "image/png" };
    const response = await addImage(productId, big);
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe("Images must be 5MB or smaller.");
    // The service says the same to any other door.
    await expect(checkImage(big.bytes)).rejects.toMatchObject({ status: 413, message: "Images must be 5MB or smaller." });
    await expect(checkImage(Buffer.from("text"))).rejects.toBeInstanceOf(ImageRejected);
  });

  it("asks for a file when none is sent, and for an existing product", async () => {
    const productId = await addProduct(ctx, { name: "Empty Tee" });
    const none = await post(`/api/admin/products/${productId}/images`, null);
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ message: "No File Selected", errors: { image: ["Please choose an image to upload."] } });
    const { png } = await samples();
    const missing = await addImage(999_999, png);
    expect(missing.status).toBe(404);
  });

  it("answers upload-product-image with imageUrl and clearImagePath, and the product keeps a srcset", async () => {
    const { png } = await samples();
    const response = await post("/api/admin/upload-product-image", png);
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({ imageUrl: expect.stringMatching(/^\/uploads\/products\/u-[0-9a-f]{32}-800\.webp$/), clearImagePath: true });
    const productId = await addProduct(ctx, { name: "Own Image Tee", imagePath: "products/stale" });
    await updateProduct(ctx, productId, { imageUrl: body.imageUrl, imagePath: null });
    const product = await getPublicProduct(ctx, productId);
    expect(product.imageUrl).toBe(body.imageUrl);
    expect(product.srcSet).toContain("1200w");
    // Replacing it makes the old upload garbage: its files go.
    const files = filesOf(product.imagePath!);
    await updateProduct(ctx, productId, { imageUrl: "https://cdn.example.com/new.jpg", imagePath: null });
    expect(files.some((f) => fs.existsSync(f))).toBe(false);
  });
});

describe("the primary image", () => {
  it("makes the first image primary and shows it as the product's picture", async () => {
    const productId = await addProduct(ctx, { name: "Primary Tee" });
    const { png, gif } = await samples();
    const first: AdminProductImage = await (await addImage(productId, png)).json();
    const second: AdminProductImage = await (await addImage(productId, gif)).json();
    expect(first).toMatchObject({ isPrimary: true, displayOrder: 0 });
    expect(second).toMatchObject({ isPrimary: false, displayOrder: 1 });
    expect(await getAdminProduct(ctx, productId)).toMatchObject({ imageUrl: first.imageUrl, imagePath: first.imagePath, imageCount: 2 });
  });

  it("moves the flag atomically (exactly one primary) and keeps products.imageUrl in sync", async () => {
    const productId = await addProduct(ctx, { name: "Switch Tee" });
    const { png, gif, jpeg } = await samples();
    const a: AdminProductImage = await (await addImage(productId, png)).json();
    const b: AdminProductImage = await (await addImage(productId, gif)).json();
    // isPrimary on upload takes the flag at once.
    const c: AdminProductImage = await (await addImage(productId, jpeg, { isPrimary: "true", displayOrder: "5" })).json();
    expect(c).toMatchObject({ isPrimary: true, displayOrder: 5 });
    expect((await images(productId)).filter((i) => i.isPrimary).map((i) => i.id)).toEqual([c.id]);

    const patched = await api("PATCH", `/api/admin/products/images/${b.id}`, { body: { isPrimary: true }, jar: admin });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ id: b.id, isPrimary: true });
    expect((await images(productId)).filter((i) => i.isPrimary).map((i) => i.id)).toEqual([b.id]);
    expect((await getAdminProduct(ctx, productId)).imageUrl).toBe(b.imageUrl);

    // Through tRPC as well.
    const trpc = await api("POST", "/api/trpc/admin.products.images.setPrimary", { body: { imageId: a.id }, jar: admin });
    expect((await trpc.json()).result.data).toMatchObject({ id: a.id, isPrimary: true });
    expect((await images(productId)).filter((i) => i.isPrimary).map((i) => i.id)).toEqual([a.id]);
    expect((await getAdminProduct(ctx, productId)).imageUrl).toBe(a.imageUrl);

    // The primary cannot simply be switched off: the product would have none.
    const off = await api("PATCH", `/api/admin/products/images/${a.id}`, { body: { isPrimary: false }, jar: admin });
    expect(off.status).toBe(400);
    expect((await off.json()).message).toBe("A product needs a primary image: set another image as primary instead.");
  });

  it("keeps exactly one primary when several are chosen at once", async () => {
    const productId = await addProduct(ctx, { name: "Race Tee" });
    const tiny = await picture(16, 16).png().toBuffer();
    const all = [];
    for (let i = 0; i < 4; i++) all.push(await addProductImage(ctx, productId, tiny));
    await Promise.all(all.map((image) => setPrimaryImage(ctx, image.id)));
    const primaries = (await images(productId)).filter((i) => i.isPrimary);
    expect(primaries).toHaveLength(1);
    expect((await getAdminProduct(ctx, productId)).imageUrl).toBe(primaries[0]!.imageUrl);
  });

  it("reorders images through tRPC and PATCH displayOrder", async () => {
    const productId = await addProduct(ctx, { name: "Order Tee" });
    const { png, gif, jpeg } = await samples();
    const ids: number[] = [];
    for (const file of [png, gif, jpeg]) ids.push(((await (await addImage(productId, file)).json()) as AdminProductImage).id);
    const reversed = [...ids].reverse();
    const response = await api("POST", "/api/trpc/admin.products.images.reorder", { body: { productId, imageIds: reversed }, jar: admin });
    expect((await response.json()).result.data.images.map((i: AdminProductImage) => i.id)).toEqual(reversed);
    const partial = await api("POST", "/api/trpc/admin.products.images.reorder", { body: { productId, imageIds: [ids[0]] }, jar: admin });
    expect(partial.status).toBe(400);
    const patched = await api("PATCH", `/api/admin/products/images/${ids[2]}`, { body: { displayOrder: 9 }, jar: admin });
    expect(await patched.json()).toMatchObject({ displayOrder: 9 });
    expect((await images(productId)).map((i) => i.id).at(-1)).toBe(ids[2]);
  });

  it("deleting the primary promotes the next by display order; the files leave the disk", async () => {
    const productId = await addProduct(ctx, { name: "Delete Tee" });
    const { png, gif, jpeg } = await samples();
    const a: AdminProductImage = await (await addImage(productId, png)).json();
    const b: AdminProductImage = await (await addImage(productId, gif, { displayOrder: "7" })).json();
    const c: AdminProductImage = await (await addImage(productId, jpeg, { displayOrder: "3" })).json();
    expect(filesOf(a.imagePath!).every((f) => fs.existsSync(f))).toBe(true);

    const response = await api("DELETE", `/api/admin/products/images/${a.id}`, { jar: admin });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: "Image deleted.", id: a.id, productId });
    expect(filesOf(a.imagePath!).some((f) => fs.existsSync(f))).toBe(false);
    const left = await images(productId);
    expect(left.map((i) => [i.id, i.isPrimary])).toEqual([
      [c.id, true],
      [b.id, false],
    ]);
    expect((await getAdminProduct(ctx, productId)).imageUrl).toBe(c.imageUrl);

    await deleteProductImage(ctx, c.id);
    await deleteProductImage(ctx, b.id);
    expect(await getAdminProduct(ctx, productId)).toMatchObject({ imageUrl: null, imagePath: null, imageCount: 0 });
    expect([...filesOf(b.imagePath!), ...filesOf(c.imagePath!)].some((f) => fs.existsSync(f))).toBe(false);
    const again = await api("DELETE", `/api/admin/products/images/${a.id}`, { jar: admin });
    expect(again.status).toBe(404);
  });

  it("stops at 20 images per product", async () => {
    const productId = await addProduct(ctx, { name: "Many Tee" });
    const tiny = await picture(8, 8).png().toBuffer();
    for (let i = 0; i < 20; i++) await addProductImage(ctx, productId, tiny);
    await expect(addProductImage(ctx, productId, tiny)).rejects.toThrow("A product can have at most 20 images.");
    const dir = path.join(ctx.config.uploadsDir, "products");
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(`p${productId}-`))).toHaveLength(60);
  });
});

describe("abandoned uploads", () => {
  it("deletes, after an hour, pictures uploaded from a form that was never saved; never one a product shows", async () => {
    const productId = await addProduct(ctx, { name: "Kept Picture Tee" });
    const { png } = await samples();
    const kept = await addProductImage(ctx, productId, png.bytes);
    const abandoned = await uploadProductImage(ctx, png.bytes);
    const abandonedBase = ownImagePathOf(abandoned.imageUrl)!;
    const fresh = await uploadProductImage(ctx, png.bytes);
    const freshBase = ownImagePathOf(fresh.imageUrl)!;
    const age = (base: string, minutes: number) => {
      const when = new Date(ctx.clock.now().getTime() - minutes * 60_000);
      for (const file of filesOf(base)) fs.utimesSync(file, when, when);
    };
    age(kept.imagePath!, 300);
    age(abandonedBase, 120);
    age(freshBase, 5);

    const removed = await removeAbandonedImages(ctx);
    expect(removed).toContain(abandonedBase);
    expect(removed).not.toContain(kept.imagePath);
    expect(removed).not.toContain(freshBase);
    expect(filesOf(abandonedBase).some((f) => fs.existsSync(f))).toBe(false);
    expect(filesOf(kept.imagePath!).every((f) => fs.existsSync(f))).toBe(true);
    expect(filesOf(freshBase).every((f) => fs.existsSync(f))).toBe(true);
  });
});

import fs from "node:fs";
import path from "node:path";
import { formatInTimeZone } from "date-fns-tz";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { seedDemo, seedIfEmpty } from "#server/seed";
import { IMAGE_WIDTHS, variantUrls } from "#server/services/catalog/image-variants";
import { getPublicSettings } from "#server/services/store/settings";
import { createTestContext } from "../setup/context";

const ctx = createTestContext();
const DAY_MS = 24 * 60 * 60 * 1000;
let firstRun: boolean;

beforeAll(async () => {
  firstRun = await seedIfEmpty(ctx);
}, 60_000);

const products = () => ctx.db.selectFrom("products").selectAll().execute();

describe("seedIfEmpty", () => {
  it("seeds an empty database once", async () => {
    expect(firstRun).toBe(true);
    const count = (await products()).length;
    expect(count).toBeGreaterThanOrEqual(6);
    expect(count).toBeLessThanOrEqual(8);
    expect(await seedIfEmpty(ctx)).toBe(false);
    expect(await products()).toHaveLength(count);
  });

  it("covers every product state", async () => {
    const all = await products();
    const now = ctx.clock.now().getTime();
    expect(all.some((p) => p.inventory > 0 && p.isVisible === 1 && !p.isComingSoon && !p.isCountdownRestricted)).toBe(true);
    expect(all.some((p) => p.discountPercent > 0 && p.promoCode)).toBe(true);
    expect(all.some((p) => p.inventory === 0)).toBe(true);
    const comingSoon = all.find((p) => p.isComingSoon === 1);
    expect(comingSoon?.releaseDate).toMatch(/^\d{4}-\d{2}-\d{2}/);
    const restricted = all.find((p) => p.isCountdownRestricted === 1);
    expect(new Date(restricted!.countdownReleaseDate!).getTime()).toBeGreaterThan(now);
    expect(restricted!.countdownReleaseDate).toBe(new Date(restricted!.countdownReleaseDate!).toISOString());
    expect(all.some((p) => p.isVisible === 0)).toBe(true);
    for (const p of all) {
      expect(p.name.length).toBeGreaterThanOrEqual(3);
      expect(p.description.length).toBeGreaterThanOrEqual(10);
      expect(Number.isInteger(p.priceCents) && p.priceCents > 0).toBe(true);
      expect(Array.isArray(JSON.parse(p.availableColors))).toBe(true);
    }
    expect(all.filter((p) => JSON.parse(p.availableColors).length > 0).length).toBeGreaterThanOrEqual(3);
  });

  it("writes every width of every image and links them in product_images", async () => {
    const images = await ctx.db.selectFrom("productImages").selectAll().orderBy("productId").orderBy("displayOrder").execute();
    for (const product of await products()) {
      const own = images.filter((image) => image.productId === product.id);
      expect(own.filter((image) => image.isPrimary === 1)).toHaveLength(1);
      expect(own[0]).toMatchObject({ isPrimary: 1, displayOrder: 0, imagePath: product.imagePath, imageUrl: product.imageUrl });
    }
    const productIds = new Set(images.map((image) => image.productId));
    expect([...productIds].filter((id) => images.filter((i) => i.productId === id).length > 1).length).toBeGreaterThanOrEqual(2);

    for (const image of images) {
      expect(image.imageUrl).toBe(`/uploads/${image.imagePath}-800.webp`);
      const urls = variantUrls(image.imagePath!);
      expect(urls.map((u) => u.width)).toEqual([...IMAGE_WIDTHS]);
      for (const { width, url } of urls) {
        const file = path.join(ctx.config.uploadsDir, url.replace(/^\/uploads\//, ""));
        expect(fs.existsSync(file), file).toBe(true);
        const meta = await sharp(file).metadata();
        expect(meta).toMatchObject({ format: "webp", width });
        expect(meta.exif).toBeUndefined();
      }
    }
  });

  it("sets the countdown to midnight Eastern about a week after the clock", async () => {
    const settings = await getPublicSettings(ctx);
    const target = new Date(settings.countdown_date);
    // The clock reads 2026-06-01 08:00 in New York: the target is 8 June 00:00 EDT.
    expect(settings.countdown_date).toBe("2026-06-08T04:00:00.000Z");
    const ahead = target.getTime() - ctx.clock.now().getTime();
    expect(ahead).toBeGreaterThan(6 * DAY_MS);
    expect(ahead).toBeLessThanOrEqual(7 * DAY_MS);
    expect(formatInTimeZone(target, "America/New_York", "HH:mm")).toBe("00:00");
    expect(settings.homepage_tagline).toBe("Legacy isn't told — it's worn.");
    expect(await ctx.db.selectFrom("appSettings").select("key").execute()).toHaveLength(6);
  });

  it("seedDemo adds the catalogue again without touching existing files", async () => {
    const before = await products();
    await seedDemo(ctx);
    const after = await products();
    expect(after).toHaveLength(before.length * 2);
    expect(new Set(after.map((p) => p.imagePath)).size).toBe(after.length);
    expect(await ctx.db.selectFrom("appSettings").select("key").execute()).toHaveLength(6);
  }, 60_000);
});

import { saveStock } from "#server/services/catalog/product-sizes";
import crypto from "node:crypto";
import sharp from "sharp";
import type { AppContext } from "./context";
import { COLOR_SWATCHES, NEUTRAL_SWATCH } from "./contracts/catalog";
import { saveCountdown } from "./services/drop/drops";
import { deleteWebpVariants, writeWebpVariants } from "./services/catalog/image-variants";
import { addStoreDays, storeDayOf, storeDayStart, storeToday } from "./contracts/store-time";
import { SETTING_KEYS, setSetting, settingDefaults } from "./services/store/settings";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight Eastern Time `days` calendar days after `now`'s Eastern date, as a UTC instant. */
export function easternMidnightAfter(now: Date, days: number): Date {
  return storeDayStart(addStoreDays(storeToday(now), days));
}

interface DemoProduct {
  slug: string;
  name: string;
  description: string;
  priceCents: number;
  inventory: number;
  colors: string[];
  /** Pictures to generate: the first is primary. */
  images: number;
  background: [string, string];
  weight?: number;
  discountPercent?: number;
  promoCode?: string;
  isVisible?: 0 | 1;
  isComingSoon?: 0 | 1;
  releaseDate?: string;
  isCountdownRestricted?: 0 | 1;
  countdownReleaseDate?: string;
  /** Sizes, and with `grid` stock per colour and size (decision 0045); the products above have neither. */
  sizes?: string[];
  grid?: number[][];
}

/** One of each product state the store has to show, with dates relative to `now`. */
function demoCatalogue(now: Date): DemoProduct[] {
  return [
    {
      slug: "heritage-tee",
      name: "Heritage Heavyweight Tee",
      priceCents: 3800,
      inventory: 40,
      images: 3,
      description: "A 280 gsm cotton tee with a boxy cut, dropped shoulders and a ribbed collar that keeps its shape.",
      colors: ["Black", "White", "Gray"],
      background: ["#232526", "#414345"],
    },
    {
      slug: "crest-hoodie",
      name: "Crest Pullover Hoodie",
      priceCents: 8400,
      inventory: 25,
      images: 2,
      weight: 1.6,
      description: "Brushed-back fleece hoodie with a double-lined hood and a tonal crest embroidered at the chest.",
      colors: ["Navy", "Black", "Heather Oat"],
      background: ["#141e30", "#243b55"],
      discountPercent: 20,
      promoCode: "LEGACY20",
    },
    {
      slug: "presence-crewneck",
      name: "Presence Crewneck",
      priceCents: 6800,
      inventory: 0,
      images: 1,
      weight: 1.3,
      description: "Garment-dyed French terry crewneck, washed for a soft hand. The first run sold out in a day.",
      colors: ["Beige", "Brown"],
      background: ["#3e2c23", "#a47e5f"],
    },
    {
      slug: "worn-denim-jacket",
      name: "Worn Legacy Denim Jacket",
      priceCents: 14800,
      inventory: 15,
      images: 1,
      weight: 2.4,
      description: "Rigid 14 oz selvedge denim trucker jacket with copper buttons; it fades to its wearer.",
      colors: ["Blue"],
      background: ["#0f2027", "#2c5364"],
      isComingSoon: 1,
      releaseDate: storeDayOf(new Date(now.getTime() + 30 * DAY_MS)),
    },
    {
      slug: "midnight-bomber",
      name: "Midnight Drop Bomber",
      priceCents: 16500,
      inventory: 10,
      images: 1,
      weight: 2.2,
      description: "Nylon flight bomber with a quilted lining, released only when its countdown reaches zero.",
      colors: ["Black", "Green"],
      background: ["#000000", "#434343"],
      isCountdownRestricted: 1,
      countdownReleaseDate: easternMidnightAfter(now, 3).toISOString(),
    },
    {
      slug: "sin-gritos-cap",
      name: "Sin Gritos Six-Panel Cap",
      priceCents: 3200,
      inventory: 60,
      images: 1,
      weight: 0.3,
      description: "Unstructured cotton twill cap with a brass clasp and a small embroidered wordmark.",
      colors: ["Black", "Red", "Blue"],
      background: ["#3a1c1c", "#b3261e"],
    },
    {
      slug: "archive-sample-tee",
      name: "Archive Sample Tee",
      priceCents: 2900,
      inventory: 5,
      images: 1,
      isVisible: 0,
      description: "A pre-production sample kept for the archive; hidden from the store until we decide its fate.",
      colors: ["White"],
      background: ["#606c88", "#3f4c6b"],
    },
    {
      // Sizes with stock per colour and size (decision 0045): some combinations already gone.
      slug: "drop-track-jacket",
      name: "Drop Track Jacket",
      priceCents: 11800,
      inventory: 0,
      images: 1,
      weight: 1.4,
      description: "A nylon track jacket with a brushed lining, a two-way zip and taped seams, cut in five sizes.",
      colors: ["Black", "Green"],
      background: ["#0f2027", "#2c5364"],
      sizes: ["XS", "S", "M", "L", "XL"],
      // Per size (in order), the stock of each colour (in order).
      grid: [
        [0, 2],
        [3, 0],
        [4, 5],
        [0, 1],
        [2, 0],
      ],
    },
  ];
}

const swatch = (color: string | undefined) => COLOR_SWATCHES[color ?? "Black"] ?? NEUTRAL_SWATCH;
const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A neutral picture for any kind of product (a cap, a hoodie, a jacket): no garment shape, only a
 * swatch of the product's colour with its initials (front), the brand (back) or the mark close up.
 */
function productSvg(product: DemoProduct, index: number, brand: string): string {
  const garment = swatch(product.colors[index % product.colors.length]);
  const ink = ["#f4f4f2", "#d9c7a7"].includes(garment) ? "#111111" : "#f4f4f2";
  const initials = product.name
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => word[0])
    .join("")
    .toUpperCase();
  const font = `font-family="DejaVu Sans, Arial, sans-serif" font-weight="bold" text-anchor="middle" fill="${ink}"`;
  // The brand must fit the 700 px swatch whatever its length (bold glyphs ~0.75 em).
  const backSize = Math.min(140, Math.floor(560 / (0.75 * Math.max(brand.length, 1))));
  const art =
    index === 2
      ? `<rect x="150" y="150" width="900" height="900" rx="48" fill="${garment}"/>
         <text x="600" y="700" font-size="380" ${font}>${escapeXml(initials)}</text>`
      : `<rect x="250" y="250" width="700" height="700" rx="350" fill="${garment}" stroke="rgba(0,0,0,0.25)" stroke-width="6"/>
         <text x="600" y="${index === 0 ? 660 : 640}" font-size="${index === 0 ? 180 : backSize}" ${font}>${escapeXml(index === 0 ? initials : brand.toUpperCase())}</text>`;
  const [from, to] = product.background;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200" viewBox="0 0 1200 1200">
    <defs><linearGradient id="bg" x1="0" y1="0" x2="${index % 2}" y2="1">
      <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
    <rect width="1200" height="1200" fill="url(#bg)"/>${art}</svg>`;
}

type Picture = { imageUrl: string; imagePath: string };

async function drawPictures(ctx: AppContext, catalogue: DemoProduct[]): Promise<Picture[][]> {
  const pictures: Picture[][] = [];
  for (const product of catalogue) {
    const own: Picture[] = [];
    for (let i = 0; i < product.images; i++) {
      const png = await sharp(Buffer.from(productSvg(product, i, ctx.config.brand.name)))
        .png()
        .toBuffer();
      // A random suffix: seeding again (--force) must not overwrite files other rows point at.
      own.push(await writeWebpVariants(ctx, png, `${product.slug}-${i + 1}-${crypto.randomUUID().slice(0, 8)}`));
    }
    pictures.push(own);
  }
  return pictures;
}

async function isEmpty(ctx: AppContext): Promise<boolean> {
  const product = await ctx.db.selectFrom("products").select("id").limit(1).executeTakeFirst();
  const setting = await ctx.db.selectFrom("appSettings").select("id").limit(1).executeTakeFirst();
  return !product && !setting;
}

/** Draws the pictures, then writes products, images and settings in one transaction. */
async function seed(ctx: AppContext, onlyIfEmpty: boolean): Promise<boolean> {
  const now = ctx.clock.now();
  const catalogue = demoCatalogue(now);
  // Image encoding is slow async IO: it must not hold SQLite's write lock.
  const pictures = await drawPictures(ctx, catalogue);
  let written = false;
  try {
    written = await ctx.db.transaction().execute(async (trx) => {
      const tx: AppContext = { ...ctx, db: trx };
      if (onlyIfEmpty && !(await isEmpty(tx))) return false;
      for (const [n, product] of catalogue.entries()) {
        const own = pictures[n]!;
        // Staggered so "newest first" lists show the catalogue in its written order.
        const createdAt = new Date(now.getTime() - n * 60_000).toISOString();
        const { slug: _slug, colors, images: _images, background: _bg, sizes, grid, ...fields } = product;
        const { id } = await trx
          .insertInto("products")
          .values({ ...fields, availableColors: JSON.stringify(colors), ...own[0], createdAt, updatedAt: createdAt })
          .returning("id")
          .executeTakeFirstOrThrow();
        await trx
          .insertInto("productImages")
          .values(own.map((picture, i) => ({ productId: id, ...picture, isPrimary: i === 0 ? 1 : 0, displayOrder: i, createdAt })))
          .execute();
        if (sizes) {
          await saveStock(
            trx,
            id,
            {
              sizes: sizes.map((label) => ({ label, inventory: 0 })),
              stockPerColor: grid !== undefined,
              variants: grid?.flatMap((row, i) => row.map((inventory, j) => ({ size: sizes[i]!, color: colors[j]!, inventory }))),
              availableColors: colors,
            },
            createdAt,
          );
        }
      }
      const settings = { ...settingDefaults(ctx), countdown_date: easternMidnightAfter(now, 7).toISOString() };
      for (const key of SETTING_KEYS) {
        // The countdown opens the first drop (decision 0026).
        await (key === "countdown_date" ? saveCountdown(tx, settings[key]) : setSetting(tx, key, settings[key]));
      }
      return true;
    });
    return written;
  } finally {
    // No row points at the pictures unless the transaction committed: do not leave them behind.
    if (!written) await Promise.all(pictures.flat().map((picture) => deleteWebpVariants(ctx, picture.imagePath)));
  }
}

export async function seedDemo(ctx: AppContext): Promise<void> {
  await seed(ctx, false);
}

/** Seeds a database that has neither products nor settings; returns whether it did. */
export async function seedIfEmpty(ctx: AppContext): Promise<boolean> {
  if (!(await isEmpty(ctx))) return false;
  return seed(ctx, true);
}

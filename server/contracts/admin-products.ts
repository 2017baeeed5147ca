import { z } from "zod";
import type { PublicProduct, PublicProductImage } from "./catalog";
import { isWholeCents } from "./money";
import { SIZE_MESSAGES } from "./sizes-view";
import { isCalendarDay, SKIPPED_TIME_MESSAGE, storeWallClockToUtc } from "./store-time";
import { rowId } from "./row-id";

/**
 * docs/spec.md §5 "Product form" and "Product image upload". One set of field rules, read two ways:
 * - `productInputSchema` / `productPatchSchema`: JSON from REST and tRPC (numbers and booleans,
 *   numeric strings tolerated), `countdownReleaseDate` as an ISO instant;
 * - `productFormSchema`: the admin form's strings (checkboxes present or absent), the release
 *   instant entered as an America/New_York date and HH:MM time.
 * Both give the same `ProductInput`, so the form validates in the browser with the rules the
 * server applies again.
 */

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Room for the multipart envelope around one image: bodies above this are refused unread. */
export const MAX_UPLOAD_BODY_BYTES = MAX_IMAGE_BYTES + 64 * 1024;
export const MAX_IMAGES_PER_PRODUCT = 20;
export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif"] as const;

export const PRODUCT_MESSAGES = {
  name: "Name must be at least 3 characters",
  description: "Description must be at least 10 characters",
  price: "Price must be a positive number",
  inventory: "Inventory must be a non-negative integer",
  discountPercent: "Discount must be a whole number from 0 to 100",
  maxPerCustomer: "Limit per customer must be a whole number of at least 1, or empty for no limit",
  colorTaken: "Color already added",
  notFound: "Product not found.",
  nothingToUpdate: "Send at least one product field to update.",
  inCheckout: "This product is in a checkout right now. Hide it instead, or try again in a few minutes.",
  inventoryMoved: (was: number, now: number) =>
    `Inventory changed from ${was} to ${now} while you were editing (orders and checkouts move it). The form now shows ${now}: enter the new number again and save.`,
  dateRequired: "A date is required.",
  timeFormat: "Time must be in the format HH:MM (24-hour format)",
  timeSkipped: SKIPPED_TIME_MESSAGE,
} as const;

export const IMAGE_MESSAGES = {
  badType: "Please upload a JPG, PNG or GIF image.",
  tooLarge: "Images must be 5MB or smaller.",
  tooManyPixels: "Images must be 40 megapixels or smaller.",
  noFile: "No File Selected",
  noFileDescription: "Please choose an image to upload.",
  lengthRequired: "Uploads must state their size (Content-Length).",
  notFound: "Image not found.",
  tooMany: `A product can have at most ${MAX_IMAGES_PER_PRODUCT} images.`,
  keepOnePrimary: "A product needs a primary image: set another image as primary instead.",
  badOrder: "Send every image of the product exactly once, in the new order.",
} as const;

/* ----------------------------------------------------------------------------------------- */
/* Field rules                                                                                */
/* ----------------------------------------------------------------------------------------- */

/** A number from JSON, or from a form's string ("" counts as missing, so it gets the message). */
function num(message: string) {
  return z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v.trim())) : v),
    z.number({ error: message }).refine(Number.isFinite, message),
  );
}

const positive = (label: string, max: number) => {
  const message = `${label} must be a positive number`;
  return num(message).pipe(z.number().positive(message).max(max, `${label} must be at most ${max}`));
};

/** Optional text: missing, blank or null means "none" (null); otherwise trimmed. */
function optionalText(max: number, label: string) {
  return z.preprocess(
    (v) => (v == null || (typeof v === "string" && v.trim() === "") ? null : typeof v === "string" ? v.trim() : v),
    z
      .string({ error: `${label} must be text` })
      .max(max, `${label} must be at most ${max} characters`)
      .nullable(),
  );
}

/** JSON booleans, and the strings a form or a query string would send. */
const flag = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    const s = v.trim().toLowerCase();
    return ["true", "on", "1", "yes"].includes(s) ? true : ["false", "off", "0", "no", ""].includes(s) ? false : v;
  },
  z.boolean({ error: "Must be true or false" }),
);

/** A form checkbox: present means on, absent means off (an unchecked box sends nothing). */
const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean());

// Shown in <img src>: a link or a site path only (never javascript:, data: or a protocol-relative URL).
const IMAGE_URL = /^(https?:\/\/[^\s]+|\/(?!\/)[^\s]*)$/i;
// Ours ("products/<key>", the WebP variant base) or, as the storefront also accepts, a link or path.
const IMAGE_PATH = /^(products\/[a-z0-9][a-z0-9_-]{0,100}|https?:\/\/[^\s]+|\/(?!\/)[^\s]*)$/i;

const imageUrl = optionalText(2048, "Image URL").refine(
  (v) => v === null || IMAGE_URL.test(v),
  "Image URL must start with https://, http:// or /",
);
const imagePath = optionalText(300, "Image path").refine(
  (v) => v === null || IMAGE_PATH.test(v),
  "Image path must be an uploaded image (products/…), a link or a path starting with /",
);

const releaseDate = optionalText(10, "Release date").refine(
  (v) => v === null || isCalendarDay(v),
  "Release date must be a date (YYYY-MM-DD)",
);

/** An instant with an explicit zone ("…Z" or "…-04:00"), stored as ISO UTC. */
const isoInstant = optionalText(40, "Countdown release date")
  .refine(
    (v) =>
      v === null || (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && Number.isFinite(Date.parse(v))),
    "Countdown release date must be an ISO date-time with a time zone (e.g. 2026-07-04T04:00:00.000Z)",
  )
  .transform((v) => (v === null ? null : new Date(v).toISOString()));

/** Colour names: trimmed, none blank, never the same colour twice (whatever its case). */
const availableColors = z
  .preprocess(
    (v) => (v === undefined || v === null || v === "" ? [] : typeof v === "string" ? [v] : v),
    z.array(
      z
        .string({ error: "Colors must be text" })
        .trim()
        .min(1, "Color names cannot be blank")
        .max(30, "Color names must be at most 30 characters"),
      { error: "Colors must be a list of names" },
    ),
  )
  .pipe(z.array(z.string()).max(20, "At most 20 colors"))
  .refine((colors) => new Set(colors.map((c) => c.toLowerCase())).size === colors.length, PRODUCT_MESSAGES.colorTaken);

/** A size label as the admin types it: trimmed, 1–12 characters. */
const sizeLabel = z.string({ error: SIZE_MESSAGES.label }).trim().min(1, SIZE_MESSAGES.label).max(12, SIZE_MESSAGES.label);
const sizeInventory = num(SIZE_MESSAGES.sizeInventory).pipe(
  z.number().int(SIZE_MESSAGES.sizeInventory).min(0, SIZE_MESSAGES.sizeInventory).max(1_000_000, "Size stock must be at most 1000000"),
);

/** The whole list of sizes, in order; labels unique without regard to case (decision 0045). */
const sizes = z
  // `was`: the stock the editor loaded, as `inventoryWas` is for a product without sizes: a size
  // whose stock moved since (a sale, a checkout's hold) is refused rather than overwritten.
  .array(z.object({ label: sizeLabel, inventory: sizeInventory.default(0), was: sizeInventory.optional() }), {
    error: "Sizes must be a list of { label, inventory }",
  })
  .max(30, SIZE_MESSAGES.tooMany)
  .superRefine((list, issue) => {
    const seen = new Set<string>();
    for (const size of list) {
      const key = size.label.toLowerCase();
      if (seen.has(key)) issue.addIssue({ code: "custom", message: SIZE_MESSAGES.labelTaken(size.label) });
      seen.add(key);
    }
  });

/** Stock per colour and size: one entry per combination (size null for a product without sizes). */
const variants = z
  .array(
    z.object({
      size: z.preprocess((v) => (v === "" ? null : v), sizeLabel.nullable().default(null)),
      color: z.string({ error: "Colors must be text" }).trim().min(1, "Color names cannot be blank").max(30),
      inventory: sizeInventory.default(0),
      was: sizeInventory.optional(),
    }),
    { error: "Variants must be a list of { size, color, inventory }" },
  )
  .max(600, "At most 600 variants");

const fields = {
  name: z.string({ error: PRODUCT_MESSAGES.name }).trim().min(3, PRODUCT_MESSAGES.name).max(120, "Name must be at most 120 characters"),
  description: z
    .string({ error: PRODUCT_MESSAGES.description })
    .trim()
    .min(10, PRODUCT_MESSAGES.description)
    .max(5000, "Description must be at most 5000 characters"),
  price: num(PRODUCT_MESSAGES.price).pipe(
    z
      .number()
      .positive(PRODUCT_MESSAGES.price)
      .max(100_000, "Price must be at most 100000")
      // Money is whole cents: 12.345 is a typo, not a price.
      .refine(isWholeCents, "Price can have at most 2 decimal places"),
  ),
  inventory: num(PRODUCT_MESSAGES.inventory).pipe(
    z.number().int(PRODUCT_MESSAGES.inventory).min(0, PRODUCT_MESSAGES.inventory).max(1_000_000, "Inventory must be at most 1000000"),
  ),
  discountPercent: num(PRODUCT_MESSAGES.discountPercent).pipe(
    z.number().int(PRODUCT_MESSAGES.discountPercent).min(0, PRODUCT_MESSAGES.discountPercent).max(100, PRODUCT_MESSAGES.discountPercent),
  ),
  // Empty (or null) is "no limit"; anything else a whole number of at least 1.
  maxPerCustomer: z.preprocess(
    (v) => (v == null || (typeof v === "string" && v.trim() === "") ? null : typeof v === "string" ? Number(v.trim()) : v),
    z
      .number({ error: PRODUCT_MESSAGES.maxPerCustomer })
      .int(PRODUCT_MESSAGES.maxPerCustomer)
      .min(1, PRODUCT_MESSAGES.maxPerCustomer)
      .max(1_000_000, PRODUCT_MESSAGES.maxPerCustomer)
      .nullable(),
  ),
  weight: positive("Weight", 1000),
  length: positive("Length", 1000),
  width: positive("Width", 1000),
  height: positive("Height", 1000),
  imageUrl,
  imagePath,
  promoCode: optionalText(40, "Promo code"),
  availableColors,
  isVisible: flag,
  isComingSoon: flag,
  releaseDate,
  isCountdownRestricted: flag,
  countdownReleaseDate: isoInstant,
  sizes,
  stockPerColor: flag,
  variants,
  sizeGuide: optionalText(4000, "Size guide"),
};

/** POST /api/admin/products, tRPC admin.products.create / update: every field, docs/spec.md §9 defaults. */
export const productInputSchema = z.object({
  name: fields.name,
  description: fields.description,
  price: fields.price,
  inventory: fields.inventory.default(0),
  discountPercent: fields.discountPercent.default(0),
  maxPerCustomer: fields.maxPerCustomer.default(null),
  weight: fields.weight.default(1),
  length: fields.length.default(12),
  width: fields.width.default(9),
  height: fields.height.default(6),
  imageUrl: fields.imageUrl.default(null),
  imagePath: fields.imagePath.default(null),
  promoCode: fields.promoCode.default(null),
  availableColors: fields.availableColors.default([]),
  isVisible: fields.isVisible.default(true),
  isComingSoon: fields.isComingSoon.default(false),
  releaseDate: fields.releaseDate.default(null),
  isCountdownRestricted: fields.isCountdownRestricted.default(false),
  countdownReleaseDate: fields.countdownReleaseDate.default(null),
  sizes: fields.sizes.default([]),
  stockPerColor: fields.stockPerColor.default(false),
  variants: fields.variants.optional(),
  sizeGuide: fields.sizeGuide.default(null),
});
export type ProductInput = z.output<typeof productInputSchema>;
/** What a JSON caller may send (numbers or numeric strings, booleans, optional fields). */
export type ProductInputJson = z.input<typeof productInputSchema>;

// Zod 4 applies defaults inside .partial(), so the patch is built from the bare fields instead.
const optionalFields = Object.fromEntries(Object.entries(fields).map(([key, schema]) => [key, schema.optional()])) as {
  [K in keyof typeof fields]: z.ZodOptional<(typeof fields)[K]>;
};

/**
 * PATCH /api/admin/products/{id}: any subset of the fields ("isVisible only" included).
 * `inventoryWas` is the stock the editor saw when it loaded: sales and checkouts move inventory
 * while a form is open, so an edit is checked against it rather than silently overwriting them.
 */
export const productPatchSchema = z.object({
  ...optionalFields,
  inventoryWas: num("inventoryWas must be a whole number")
    .pipe(z.number().int("inventoryWas must be a whole number").min(0, "inventoryWas must be a whole number"))
    .optional(),
});
export type ProductPatch = z.output<typeof productPatchSchema>;

/** tRPC inputs. */
export const productIdSchema = z.object({ id: rowId() });
// An update writes only the fields sent (the form sends them all): nothing falls back to a default.
export const productUpdateSchema = z.object({ id: rowId(), data: productPatchSchema });
export const productVisibilitySchema = z.object({ id: rowId(), isVisible: z.boolean() });

/* ----------------------------------------------------------------------------------------- */
/* The admin form                                                                             */
/* ----------------------------------------------------------------------------------------- */

const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

// Without a time the release is at midnight, which every day has.
const releaseInstant = (date: string, time: string | null) => storeWallClockToUtc(date, time ?? "00:00");

/** What the form gives: a product input whose sizes are left out when the form had no sizes editor. */
export type ProductFormValue = Omit<ProductInput, "sizes"> & { sizes?: ProductInput["sizes"] };

/** The form: strings only. The release instant is two fields in Eastern Time. */
export const productFormSchema = z
  .object({
    ...fields,
    // The sizes editor sends the whole list (and `stockPerColor` as a checkbox); a form without it
    // leaves the product's sizes alone.
    sizes: fields.sizes.optional(),
    stockPerColor: checkbox,
    variants: fields.variants.optional(),
    sizeGuide: fields.sizeGuide.default(null),
    isVisible: checkbox,
    isComingSoon: checkbox,
    isCountdownRestricted: checkbox,
    // The form's own minimums (docs/spec.md §5): 0.1 lb, 1 inch.
    weight: positive("Weight", 1000).pipe(z.number().min(0.1, "Weight must be at least 0.1")),
    length: positive("Length", 1000).pipe(z.number().min(1, "Length must be at least 1")),
    width: positive("Width", 1000).pipe(z.number().min(1, "Width must be at least 1")),
    height: positive("Height", 1000).pipe(z.number().min(1, "Height must be at least 1")),
    countdownReleaseDate: z.undefined().optional(),
    countdownDate: optionalText(10, "Date").refine((v) => v === null || isCalendarDay(v), PRODUCT_MESSAGES.dateRequired),
    countdownTime: optionalText(5, "Time").refine((v) => v === null || HH_MM.test(v), PRODUCT_MESSAGES.timeFormat),
  })
  .superRefine((form, issue) => {
    if (form.isCountdownRestricted && form.countdownTime && !form.countdownDate) {
      issue.addIssue({ code: "custom", path: ["countdownDate"], message: PRODUCT_MESSAGES.dateRequired });
    }
    // A real day and a well-formed time with no instant: the hour the spring-forward skips.
    const { countdownDate: date, countdownTime: time } = form;
    const wellFormed = date !== null && isCalendarDay(date) && (time === null || HH_MM.test(time));
    if (form.isCountdownRestricted && wellFormed && !releaseInstant(date, time)) {
      issue.addIssue({ code: "custom", path: ["countdownTime"], message: PRODUCT_MESSAGES.timeSkipped });
    }
  })
  .transform(({ countdownDate, countdownTime, countdownReleaseDate: _unused, ...rest }): ProductFormValue => ({
    ...rest,
    // The date only matters while the restriction is on; without one the product follows the store's countdown.
    countdownReleaseDate:
      rest.isCountdownRestricted && countdownDate ? (releaseInstant(countdownDate, countdownTime)?.toISOString() ?? null) : null,
  }));

/* ----------------------------------------------------------------------------------------- */
/* Images                                                                                     */
/* ----------------------------------------------------------------------------------------- */

const displayOrder = num("Display order must be a whole number").pipe(
  z.number().int("Display order must be a whole number").min(0, "Display order must be 0 or more").max(10_000),
);

/** PATCH /api/admin/products/images/{imageId}. */
export const imagePatchSchema = z
  .object({ isPrimary: flag.optional(), displayOrder: displayOrder.optional() })
  .refine((v) => v.isPrimary !== undefined || v.displayOrder !== undefined, "Send isPrimary or displayOrder.");
export type ImagePatch = z.output<typeof imagePatchSchema>;

/** The multipart fields beside the file in POST /api/admin/products/{id}/images. */
export const imageUploadFieldsSchema = z.object({ isPrimary: flag.optional(), displayOrder: displayOrder.optional() });

export const imageIdSchema = z.object({ imageId: rowId() });
export const imageReorderSchema = z.object({
  productId: rowId(),
  imageIds: z.array(rowId()).min(1).max(MAX_IMAGES_PER_PRODUCT),
});

/* ----------------------------------------------------------------------------------------- */
/* Response shapes                                                                            */
/* ----------------------------------------------------------------------------------------- */

/** What the admin sees of a product: the public fields plus the back-office ones, in dollars. */
export interface AdminProduct extends PublicProduct {
  /** Stock kept per colour and size (`variants` then lists it); false: colours share their size's stock. */
  stockPerColor: boolean;
  isCountdownRestricted: boolean;
  /** ISO UTC instant, or null (a restricted product then follows the store countdown). */
  countdownReleaseDate: string | null;
  weight: number;
  length: number;
  width: number;
  height: number;
  imageCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface AdminProductImage extends PublicProductImage {
  createdAt: string;
}

export interface AdminProductImagesResponse {
  productId: number;
  images: AdminProductImage[];
}

/** POST /api/admin/upload-product-image. */
export interface UploadedProductImage {
  imageUrl: string;
  /** Always sent by this server: a fresh upload makes whatever imagePath the form holds stale. */
  clearImagePath?: true;
}

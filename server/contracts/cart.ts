import { z } from "zod";
import { BOT_FIELD, botFieldSchema } from "./bots";
import { CART_INTENTS, CART_MESSAGES } from "./cart-view";
import { rowId } from "./row-id";

export * from "./cart-view";

/**
 * A whole number from JSON (a number) or from a form (a string). Strings are converted strictly:
 * "" and "abc" fail rather than becoming 0.
 */
const wholeNumber = (message: string) =>
  z.preprocess(
    (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
    z.number({ error: message }).int(message),
  );

const productId = wholeNumber(CART_MESSAGES.productId).pipe(rowId(CART_MESSAGES.productId));

/**
 * A size or colour as a caller names it: text, bounded; blank is "none". Whether the product has it
 * is the service's to say (with the messages), not the schema's.
 */
const choiceText = (label: string) =>
  z.preprocess(
    (value) => (value === null || (typeof value === "string" && value.trim() === "") ? undefined : value),
    z
      .string({ error: `${label} must be text` })
      .trim()
      .max(40, `${label} must be at most 40 characters`)
      .optional(),
  );

/** POST /api/cart and "Add To Bag". Quantity defaults to 1 (docs/spec.md §9); size and colour as the product needs (decision 0045). */
export const addToCartSchema = z.object({
  [BOT_FIELD]: botFieldSchema,
  productId,
  quantity: wholeNumber(CART_MESSAGES.quantity).pipe(z.number().min(1, CART_MESSAGES.quantity)).default(1),
  size: choiceText("Size"),
  color: choiceText("Colour"),
});

/** `?size=M&color=Black` on PATCH and DELETE /api/cart/{productId}: which line of the product. */
export const lineQuerySchema = z.object({ size: choiceText("Size"), color: choiceText("Colour") });
export type AddToCartInput = z.infer<typeof addToCartSchema>;

/** PATCH /api/cart/{productId}. Below 1 removes the line (docs/spec.md §4), so 0 and negatives are valid. */
export const setQuantitySchema = z.object({
  quantity: wholeNumber(CART_MESSAGES.quantityWhole),
});
export type SetQuantityInput = z.infer<typeof setQuantitySchema>;

/** The buttons of the cart view and the dropdown, posted to /cart as real forms. */
export const cartFormSchema = z.object({
  intent: z.enum(CART_INTENTS, { error: "Unknown cart action." }),
  productId,
  size: choiceText("Size"),
  color: choiceText("Colour"),
});

import { BOT_FIELD, botFieldSchema } from "./bots";
import { z } from "zod";
import { CHECKOUT_MESSAGES } from "./checkout-messages";

export { CHECKOUT_MESSAGES };

const required = (message = CHECKOUT_MESSAGES.missing) => z.string({ error: message }).trim().min(1, message);

/** docs/spec.md §3 "Customer info". State is required (two letters, upper-cased) for US addresses only. */
export const customerInfoSchema = z
  .object({
    email: required().max(254).pipe(z.email("Please enter a valid email address")),
    name: required().max(120),
    phone: z.string().trim().max(40).optional().default(""),
    street: required().max(200),
    city: required().max(100),
    state: z.string().trim().toUpperCase().max(2, "Use the 2-letter state code").optional().default(""),
    zipCode: required().max(20),
    country: z.string().trim().toUpperCase().length(2, CHECKOUT_MESSAGES.missing).default("US"),
  })
  .superRefine((value, issue) => {
    if (value.country === "US" && !/^[A-Z]{2}$/.test(value.state)) {
      issue.addIssue({ code: "custom", path: ["state"], message: CHECKOUT_MESSAGES.missing });
    }
  })
  .transform((value) => ({ ...value, state: value.country === "US" ? value.state : "" }));
export type CustomerInfo = z.infer<typeof customerInfoSchema>;

/**
 * A rate's `key` such as "usps-ground_saver". Keys are lower case; a caller's "USPS-ground_saver"
 * (built from the rate's carrier and method) means the same rate, so case is ignored here, the
 * one place the method is read.
 */
export const shippingMethodSchema = z
  .string({ error: CHECKOUT_MESSAGES.missing })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9]+-[a-z0-9_]+$/, CHECKOUT_MESSAGES.missing);

/** POST /api/process-order. A shippingCost may be sent (the spec's client does) but is never trusted. */
export const processOrderSchema = z.object({
  /** The checkout form's honeypot, for a caller that sends it (decision 0020). */
  [BOT_FIELD]: botFieldSchema,
  customerInfo: customerInfoSchema,
  shippingMethod: shippingMethodSchema,
  shippingCost: z.unknown().optional(),
});
export type ProcessOrderInput = z.infer<typeof processOrderSchema>;

export const confirmOrderSchema = z.object({
  paymentIntentId: z.string({ error: "paymentIntentId is required" }).trim().min(1, "paymentIntentId is required").max(255),
});

export interface OrderSummary {
  orderId: number;
  orderNumber: string;
  /** `size` and `color`: null for a product without sizes / colours (decision 0045). */
  items: {
    productId: number;
    size: string | null;
    color: string | null;
    name: string;
    unitPrice: number;
    quantity: number;
    total: number;
  }[];
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  taxRate: number;
  taxLabel: string;
  total: number;
  holdExpiresAt: string;
}

/** docs/spec.md §9: the last 8 characters of the payment intent, upper-cased; otherwise the numeric id. */
export function orderNumberOf(order: { id: number; paymentIntentId: string | null }): string {
  return order.paymentIntentId ? order.paymentIntentId.slice(-8).toUpperCase() : String(order.id);
}

const address = z.object({
  street: z.string().trim().max(200).default(""),
  city: z.string().trim().max(100).default(""),
  state: z.string().trim().toUpperCase().max(2, "Use the 2-letter state code").default(""),
  zipCode: z.string().trim().max(20).default(""),
  country: z.string().trim().toUpperCase().length(2, "Choose a country").default("US"),
});

/** POST /api/shipping/calculate. packageWeight is accepted for the spec's client but the bag decides. */
export const shippingCalculateSchema = z.object({
  address,
  packageWeight: z.unknown().optional(),
});

/**
 * POST /api/calculate-tax. The caller's bag, when it has one, decides the goods (subtotal is then
 * only the spec's field); shippingCost, ours, is the chosen rate, for states that tax delivery.
 */
export const calculateTaxSchema = z.object({
  state: z.string().trim().toUpperCase().max(2).default(""),
  country: z.string().trim().toUpperCase().length(2, "Choose a country").default("US"),
  subtotal: z.number({ error: "subtotal must be a number" }).nonnegative("subtotal must not be negative").max(1_000_000),
  shippingCost: z
    .number({ error: "shippingCost must be a number" })
    .nonnegative("shippingCost must not be negative")
    .max(100_000)
    .optional(),
});

/** The local test processor's card form (the offline stand-in for Stripe.js). */
export const localCardSchema = z.object({
  clientSecret: z.string({ error: "Payment not found." }).min(1, "Payment not found."),
  cardNumber: z.string({ error: "Enter the card number." }).trim().min(12, "Enter the card number.").max(23),
});

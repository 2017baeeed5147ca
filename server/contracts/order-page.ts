import { z } from "zod";

/**
 * The buyer's order page (issue 25): GET /api/orders/{token}, the /orders/{token} page, and the
 * "Find my order" form. Client code may import this file.
 */

export { ORDER_PAGE_MESSAGES } from "./order-page-messages";
import { ORDER_PAGE_MESSAGES } from "./order-page-messages";

export const ORDER_STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"] as const;
export const TIMELINE_STEPS = ["placed", "paid", "label_created", "shipped", "delivered", "refunded", "cancelled"] as const;
export type TimelineStep = (typeof TIMELINE_STEPS)[number];

export interface Tracking {
  carrier: string;
  number: string;
  /** Null for a carrier the store has no tracking page for: the number is shown without a link. */
  url: string | null;
}

/** GET /api/orders/{token}: field for field the contract; money in dollars. */
export interface OrderPageAnswer {
  orderNumber: string;
  status: (typeof ORDER_STATUSES)[number];
  refundStatus: "none" | "pending" | "completed";
  createdAt: string;
  items: { productName: string; size: string | null; quantity: number; price: number; total: number }[];
  subtotal: number;
  shipping: number;
  tax: number;
  total: number;
  timeline: { status: TimelineStep; at: string }[];
  tracking: Tracking | null;
}

/** What the page shows beyond the API's answer. */
export interface OrderPageView extends OrderPageAnswer {
  placedOn: string;
  discount: number;
  refundAmount: number;
  lines: { productName: string; imageUrl: string | null; size: string | null; quantity: number; price: number; total: number }[];
  /** The street partly masked: the page opens to whoever holds the link. */
  shipTo: { name: string; lines: string[] };
  /** /support with the order number filled in. */
  supportUrl: string;
}

/** POST /api/orders/lookup and the /orders form. */
export const orderLookupSchema = z.object({
  email: z.string({ error: ORDER_PAGE_MESSAGES.emailInvalid }).trim().max(254).pipe(z.email(ORDER_PAGE_MESSAGES.emailInvalid)),
  orderNumber: z
    .string({ error: ORDER_PAGE_MESSAGES.orderNumberRequired })
    .trim()
    // "#AB12CD34" as the e-mail shows it is the same number.
    .transform((value) => value.replace(/^#/, "").toUpperCase())
    .pipe(z.string().min(1, ORDER_PAGE_MESSAGES.orderNumberRequired).max(40, ORDER_PAGE_MESSAGES.orderNumberRequired)),
});
export type OrderLookupInput = z.infer<typeof orderLookupSchema>;

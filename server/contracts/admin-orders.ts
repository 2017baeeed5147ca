import { z } from "zod";

export const ORDER_STATUSES = ["pending", "processing", "shipped", "delivered", "cancelled"] as const;

export const orderStatusSchema = z.object({
  status: z.enum(ORDER_STATUSES, { error: `Status must be one of ${ORDER_STATUSES.join(", ")}` }),
});

/** docs/spec.md §5 Refund: a reason is required and not blank. */
export const refundSchema = z.object({
  reason: z
    .string({ error: "Please provide a reason for the refund" })
    .trim()
    .min(1, "Please provide a reason for the refund")
    .max(500, "The reason must be at most 500 characters"),
  refundShipping: z.preprocess((v) => v === true || v === "true" || v === "on" || v === "1", z.boolean()).default(false),
});
export type RefundInput = z.infer<typeof refundSchema>;

export const REFUND_MESSAGES = {
  alreadyRefunded: "This order has already been refunded.",
  inProgress: "A refund for this order is already being processed.",
  notPaid: "This order has not been paid, so there is nothing to refund.",
  eligible: "This order can be refunded.",
  /** A refund claimed long ago and never recorded (the process died during it): processing it again finishes it. */
  stalled: "A refund for this order was started but never finished. Process it again to finish it; the customer is not refunded twice.",
  failed: "Failed to process refund",
} as const;

/** Buying a label again from the order's View dialog, after the automatic tries failed. */
export const LABEL_MESSAGES = {
  notPaid: "Only a paid order can get a shipping label.",
  cancelled: "A cancelled or refunded order ships nothing.",
  exists: "This order already has a shipping label.",
  busy: "A label is being bought for this order right now. Try again in a moment.",
  failed: "The label could not be bought",
} as const;

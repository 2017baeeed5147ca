import { z } from "zod";

export { SUPPORT_FIELDS, SUPPORT_TYPES, type SupportField } from "./support-types";

const SUPPORT_TYPE_VALUES = ["order", "product", "shipping", "refund", "technical", "other"] as const;

/** docs/spec.md §5 Support form, messages exact. Shared by the page, and POST /api/support/contact. */
export const supportSchema = z.object({
  name: z
    .string({ error: "Name must be at least 2 characters" })
    .trim()
    .min(2, "Name must be at least 2 characters")
    .max(100, "Name must be at most 100 characters"),
  email: z
    .string({ error: "Please enter a valid email address" })
    .trim()
    .max(254, "Please enter a valid email address")
    .pipe(z.email("Please enter a valid email address")),
  orderNumber: z
    .string()
    .trim()
    .max(40, "Order number must be at most 40 characters")
    .optional()
    .transform((v) => (v ? v : undefined)),
  subject: z
    .string({ error: "Subject must be at least 5 characters" })
    .trim()
    .min(5, "Subject must be at least 5 characters")
    .max(200, "Subject must be at most 200 characters"),
  message: z
    .string({ error: "Message must be at least 10 characters" })
    .trim()
    .min(10, "Message must be at least 10 characters")
    .max(5000, "Message must be at most 5000 characters"),
  supportType: z.enum(SUPPORT_TYPE_VALUES, { error: "Please choose what your message is about" }).default("other"),
});
export type SupportInput = z.infer<typeof supportSchema>;

/**
 * The order number a link to /support names (`?orderNumber=`, from the order page), as the order
 * page shows it ("#AB12CD34" or "ab12cd34" alike), or null for anything that is not one.
 */
export function supportOrderNumberOf(value: string | null): string | null {
  const number = (value ?? "").trim().replace(/^#/, "").toUpperCase();
  return /^[A-Z0-9]{1,20}$/.test(number) ? number : null;
}

export const SUPPORT_MESSAGES = {
  successTitle: "Message sent successfully",
  successDescription: "We'll get back to you within 24 hours.",
  failureTitle: "Failed to send message",
  failureDefault: "Please try again later.",
} as const;
